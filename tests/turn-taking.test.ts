import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignTurnTaking } from '../server/domains/campaigns/campaign-turn-taking.js';
import { DEFAULT_TURN_TAKING } from '../shared/schemas/turn-taking.js';
import { wav } from './helpers/audio.js';
import { type Api, apiAs, createPublishedScript } from './helpers/factories.js';
import { interviewFixture, PARTICIPANT_BUDGET, participantAs } from './helpers/interviews.js';
import { startTestApp, type TestApp, type TestTenant } from './helpers/test-app.js';

/**
 * Turn-taking you can see (issue "Voice-first interviews", part 6): `settings.turnTaking` on
 * campaigns and scripts, the page's `voiceTiming` report on each answer, what is stored per turn,
 * and the session's `turnTaking` summary.
 */

let t: TestApp;
let tenant: TestTenant;
let api: Api;

beforeAll(async () => {
  t = await startTestApp(PARTICIPANT_BUDGET);
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
});

afterAll(async () => {
  await t?.close();
});

function fieldPaths(body: any): string[] {
  return (body.error.details.fields as { path: string }[]).map((field) => field.path);
}

describe('settings.turnTaking', () => {
  it('is stored on a campaign and answered as given', async () => {
    const script = await createPublishedScript(api);
    const created = await api.post('/v1/campaigns', { name: 'Voice campaign', scriptId: script.id, settings: { turnTaking: { endOfTurnMs: 900, bargeIn: false } } }).expect(201);
    expect(created.body.settings.turnTaking).toEqual({ endOfTurnMs: 900, bargeIn: false });
    const read = await api.get(`/v1/campaigns/${created.body.id}`).expect(200);
    expect(read.body.settings.turnTaking).toEqual({ endOfTurnMs: 900, bargeIn: false });
  });

  it('out of range, of the wrong type or with an unknown key answers 422 naming each field, and nothing is created', async () => {
    const script = await createPublishedScript(api);
    const name = `Bad turn-taking ${Math.random()}`;
    const response = await api
      .post('/v1/campaigns', { name, scriptId: script.id, settings: { turnTaking: { endOfTurnMs: 100, pauseMs: 20_000, bargeIn: 'yes', silenceMs: 5 } } })
      .expect(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(fieldPaths(response.body).sort()).toEqual(['settings.turnTaking.bargeIn', 'settings.turnTaking.endOfTurnMs', 'settings.turnTaking.pauseMs', 'settings.turnTaking.silenceMs']);
    const list = await api.get('/v1/campaigns?limit=100').expect(200);
    expect(list.body.data.map((campaign: { name: string }) => campaign.name)).not.toContain(name);
  });

  it('a fractional wait is refused (whole milliseconds)', async () => {
    const script = await createPublishedScript(api);
    const response = await api.post('/v1/campaigns', { name: 'Fractional', scriptId: script.id, settings: { turnTaking: { endOfTurnMs: 700.5 } } }).expect(422);
    expect(fieldPaths(response.body)).toEqual(['settings.turnTaking.endOfTurnMs']);
  });

  it('updates are merge patches: a key replaces, null removes a key, null for turnTaking removes it all', async () => {
    const script = await createPublishedScript(api);
    const created = await api.post('/v1/campaigns', { name: 'Patch me', scriptId: script.id, settings: { voice: 'alloy', turnTaking: { endOfTurnMs: 900, pauseMs: 3000 } } }).expect(201);
    const path = `/v1/campaigns/${created.body.id}`;
    const patched = await api.patch(path, { settings: { turnTaking: { pauseMs: 2500, bargeIn: false } } }).expect(200);
    expect(patched.body.settings.turnTaking).toEqual({ endOfTurnMs: 900, pauseMs: 2500, bargeIn: false });
    const removedKey = await api.patch(path, { settings: { turnTaking: { endOfTurnMs: null } } }).expect(200);
    expect(removedKey.body.settings.turnTaking).toEqual({ pauseMs: 2500, bargeIn: false });
    const invalid = await api.patch(path, { settings: { turnTaking: { pauseMs: 499 } } }).expect(422);
    expect(fieldPaths(invalid.body)).toEqual(['settings.turnTaking.pauseMs']);
    const removed = await api.patch(path, { settings: { turnTaking: null } }).expect(200);
    expect(removed.body.settings).toEqual({ voice: 'alloy' });
  });

  it('scripts carry it too, and the campaign wins key by key over the script, then the defaults', async () => {
    const script = await createPublishedScript(api, { settings: { turnTaking: { endOfTurnMs: 1200, pauseMs: 4000 } } });
    const read = await api.get(`/v1/scripts/${script.id}`).expect(200);
    expect(read.body.settings.turnTaking).toEqual({ endOfTurnMs: 1200, pauseMs: 4000 });
    const bad = await api.post('/v1/scripts', { name: 'Bad script', systemPrompt: 'You interview.', questions: [{ id: 'q', text: 'Why?', type: 'open' }], settings: { turnTaking: { endOfTurnMs: 6000 } } });
    expect(bad.status).toBe(422);
    expect(fieldPaths(bad.body)).toEqual(['settings.turnTaking.endOfTurnMs']);

    expect(campaignTurnTaking({ settings: { turnTaking: { endOfTurnMs: 800 } } }, read.body.settings)).toEqual({ endOfTurnMs: 800, pauseMs: 4000, bargeIn: true });
    expect(campaignTurnTaking({ settings: {} }, null)).toEqual(DEFAULT_TURN_TAKING);
    expect(campaignTurnTaking({ settings: { turnTaking: { bargeIn: false } } })).toEqual({ ...DEFAULT_TURN_TAKING, bargeIn: false });
  });
});

describe('voiceTiming on answers', () => {
  it('a text answer and a multipart audio answer accept it', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    await participant.answer('It was a smooth first week, thanks.', { voiceTiming: { speechEndedAt: 1_700_000_000_000, endOfTurnAt: 1_700_000_000_700, aiAudioStartedAt: 1_699_999_990_000 } }).expect(200);
    await participant
      .answerAudio(wav(1), 'answer.wav', { text: 'four', voiceTiming: JSON.stringify({ speechEndedAt: 1_700_000_010_000, endOfTurnAt: 1_700_000_010_700, bargeIn: true }) })
      .expect(200);
  });
});
