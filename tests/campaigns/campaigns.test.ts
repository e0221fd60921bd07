import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Campaign } from '../../server/entities/index.js';
import { apiAs, createCampaign, createProject, createPublishedScript, createScript, type Api } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Api;

beforeAll(async () => {
  t = await startTestApp();
  api = apiAs(t.http, await t.createTenant());
});
afterAll(() => t?.close());

describe('creating campaigns', () => {
  it('answers 201 with an active campaign whose stats are all 0', async () => {
    const script = await createPublishedScript(api);
    const project = await createProject(api);
    const response = await api.post('/v1/campaigns', {
      name: 'Q4 churn interviews',
      description: 'Customers who left in Q4',
      scriptId: script.id,
      projectId: project.id,
      settings: { voice: 'alloy', language: 'en', maxDuration: 1800, requireConsent: true },
      inviteDefaults: { expiresIn: '7d', emailTemplate: 'default' },
      metadata: { team: 'growth', quarter: 4, pilot: true },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^cam_[0-9A-Za-z]{22}$/),
      livemode: true,
      name: 'Q4 churn interviews',
      participantTitle: null,
      description: 'Customers who left in Q4',
      scriptId: script.id,
      projectId: project.id,
      status: 'active',
      settings: { voice: 'alloy', language: 'en', maxDuration: 1800, requireConsent: true },
      inviteDefaults: { expiresIn: '7d', emailTemplate: 'default' },
      metadata: { team: 'growth', quarter: 4, pilot: true },
      stats: { totalInvites: 0, completedSessions: 0, averageDuration: 0 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const row = await t.em().findOneOrFail(Campaign, { id: response.body.id });
    expect(row.status).toBe('active');
  });

  it('a draft script answers 409 SCRIPT_NOT_PUBLISHED', async () => {
    const script = await createScript(api);
    const response = await api.post('/v1/campaigns', { name: 'Too early', scriptId: script.id });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'SCRIPT_NOT_PUBLISHED', details: { scriptId: script.id } });
  });

  it('an archived script answers 409 SCRIPT_ARCHIVED', async () => {
    const script = await createPublishedScript(api);
    await api.post(`/v1/scripts/${script.id}/archive`).expect(200);
    const response = await api.post('/v1/campaigns', { name: 'Archived script', scriptId: script.id });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('SCRIPT_ARCHIVED');
  });

  it('a script with an open draft over a published version can be used', async () => {
    const script = await createPublishedScript(api);
    await api.post(`/v1/scripts/${script.id}/versions`, { systemPrompt: 'Draft v2' }).expect(201);
    await api.post('/v1/campaigns', { name: 'Uses v1', scriptId: script.id }).expect(201);
  });

  it('an unknown script answers 404 naming scriptId', async () => {
    const response = await api.post('/v1/campaigns', { name: 'Ghost', scriptId: 'scr_missing' });
    expect(response.status).toBe(404);
    expect(response.body.error.details.fields).toEqual([{ path: 'scriptId', message: 'no script with this id' }]);
  });

  it.each([
    ['name over 100 characters', { name: 'n'.repeat(101) }, 'name'],
    ['description over 500 characters', { description: 'd'.repeat(501) }, 'description'],
    ['participantTitle over 200 characters', { participantTitle: 't'.repeat(201) }, 'participantTitle'],
    ['an empty participantTitle', { participantTitle: '   ' }, 'participantTitle'],
    ['an unknown settings key', { settings: { colour: 'red' } }, 'settings.colour'],
    ['maxDuration below 60 seconds', { settings: { maxDuration: 10 } }, 'settings.maxDuration'],
    ['a malformed language', { settings: { language: 'english please' } }, 'settings.language'],
    ['a language interviews are not held in', { settings: { language: 'ja' } }, 'settings.language'],
    ['requireConsent that is not a boolean', { settings: { requireConsent: 'yes' } }, 'settings.requireConsent'],
    ['expiresIn with an unknown unit', { inviteDefaults: { expiresIn: '7y' } }, 'inviteDefaults.expiresIn'],
    ['expiresIn of zero', { inviteDefaults: { expiresIn: '0d' } }, 'inviteDefaults.expiresIn'],
    ['expiresIn over a year', { inviteDefaults: { expiresIn: '53w' } }, 'inviteDefaults.expiresIn'],
    ['an emailTemplate that is not an id', { inviteDefaults: { emailTemplate: 'My Template!' } }, 'inviteDefaults.emailTemplate'],
    ['a nested metadata value', { metadata: { nested: { a: 1 } } }, 'metadata.nested'],
    ['51 metadata keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata'],
    ['a metadata key over 40 characters', { metadata: { ['k'.repeat(41)]: 1 } }, `metadata.${'k'.repeat(41)}`],
  ])('%s answers 422 naming the field and stores nothing', async (_label, overrides, path) => {
    const script = await createPublishedScript(api);
    const before = await t.em().count(Campaign, {});
    const response = await api.post('/v1/campaigns', { name: 'Valid name', scriptId: script.id, ...overrides });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    expect(await t.em().count(Campaign, {})).toBe(before);
  });

  it('name and description at their limits are accepted', async () => {
    const script = await createPublishedScript(api);
    await api.post('/v1/campaigns', { name: 'n'.repeat(100), description: 'd'.repeat(500), scriptId: script.id }).expect(201);
  });

  it('participantTitle is stored, trimmed, and read back by get and list', async () => {
    const script = await createPublishedScript(api);
    const created = await api
      .post('/v1/campaigns', { name: 'Internal: churn Q4 (cohort B)', participantTitle: '  Tell us about your experience ', scriptId: script.id })
      .expect(201);
    expect(created.body.participantTitle).toBe('Tell us about your experience');
    const row = await t.em().findOneOrFail(Campaign, { id: created.body.id });
    expect(row.participantTitle).toBe('Tell us about your experience');
    const got = await api.get(`/v1/campaigns/${created.body.id}`).expect(200);
    expect(got.body.participantTitle).toBe('Tell us about your experience');
    const listed = await api.get('/v1/campaigns?search=cohort%20B').expect(200);
    expect(listed.body.data.map((c: { participantTitle: string | null }) => c.participantTitle)).toEqual(['Tell us about your experience']);
  });

  it('a participantTitle of 200 characters is accepted', async () => {
    const script = await createPublishedScript(api);
    const response = await api.post('/v1/campaigns', { name: 'Long title', participantTitle: 't'.repeat(200), scriptId: script.id }).expect(201);
    expect(response.body.participantTitle).toHaveLength(200);
  });

  it('a participantTitle that is not a string answers 422 naming it', async () => {
    const script = await createPublishedScript(api);
    const response = await api.post('/v1/campaigns', { name: 'Typed title', participantTitle: 42, scriptId: script.id });
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields.map((f: { path: string }) => f.path)).toEqual(['participantTitle']);
  });

  it('missing name and scriptId answer 400 INVALID_REQUEST', async () => {
    const response = await api.post('/v1/campaigns', { description: 'No name' });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(['name', 'scriptId']);
  });
});

describe('listing campaigns', () => {
  let own: Api;
  let ids: Record<string, string>;

  beforeAll(async () => {
    own = apiAs(t.http, await t.createTenant());
    const script = await createPublishedScript(own);
    const project = await createProject(own);
    ids = {};
    for (const name of ['Charlie survey', 'alpha survey', 'Bravo interviews']) {
      ids[name] = (await createCampaign(own, { name, scriptId: script.id, projectId: name === 'Bravo interviews' ? project.id : undefined })).id;
    }
    ids.project = project.id;
    await own.post(`/v1/campaigns/${ids['Charlie survey']}/pause`).expect(200);
  });

  it('defaults to newest first', async () => {
    const response = await own.get('/v1/campaigns').expect(200);
    expect(response.body.data.map((c: { name: string }) => c.name)).toEqual(['Bravo interviews', 'alpha survey', 'Charlie survey']);
    expect(response.body.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false, nextCursor: null });
  });

  it('sorts by name ascending', async () => {
    const response = await own.get('/v1/campaigns?sort=name&order=asc').expect(200);
    expect(response.body.data.map((c: { name: string }) => c.name)).toEqual(['Bravo interviews', 'Charlie survey', 'alpha survey']);
  });

  it('sorts by updatedAt descending (the paused campaign changed last)', async () => {
    const response = await own.get('/v1/campaigns?sort=updatedAt&order=desc').expect(200);
    expect(response.body.data[0].name).toBe('Charlie survey');
  });

  it('filters by status, projectId and search', async () => {
    const paused = await own.get('/v1/campaigns?status=paused').expect(200);
    expect(paused.body.data.map((c: { id: string }) => c.id)).toEqual([ids['Charlie survey']]);
    const inProject = await own.get(`/v1/campaigns?projectId=${ids.project}`).expect(200);
    expect(inProject.body.data.map((c: { id: string }) => c.id)).toEqual([ids['Bravo interviews']]);
    const search = await own.get('/v1/campaigns?search=SURVEY').expect(200);
    expect(search.body.pagination.total).toBe(2);
  });

  it('paginates without overlap', async () => {
    const first = await own.get('/v1/campaigns?limit=2&offset=0&sort=name&order=asc').expect(200);
    const second = await own.get('/v1/campaigns?limit=2&offset=2&sort=name&order=asc').expect(200);
    expect(first.body.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true, nextCursor: expect.stringMatching(/^cur_/) });
    expect(second.body.pagination).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false, nextCursor: null });
    expect(second.body.data).toHaveLength(1);
  });

  it.each([
    ['status=running', 'status'],
    ['sort=budget', 'sort'],
    ['order=up', 'order'],
    ['unknown=1', 'unknown'],
  ])('a bad query parameter %s answers 400', async (query, path) => {
    const response = await own.get(`/v1/campaigns?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(response.body.error.details.fields[0].path).toBe(path);
  });
});

describe('updating campaigns', () => {
  it('merges settings, inviteDefaults and metadata; null removes a key', async () => {
    const campaign = await createCampaign(api, {
      settings: { voice: 'alloy', maxDuration: 600 },
      inviteDefaults: { expiresIn: '3d' },
      metadata: { team: 'growth', keep: 'yes' },
    });
    const response = await api
      .patch(`/v1/campaigns/${campaign.id}`, {
        name: 'Renamed',
        settings: { voice: null, requireConsent: true },
        inviteDefaults: { emailTemplate: 'reminder' },
        metadata: { team: null, owner: 'ana' },
      })
      .expect(200);
    expect(response.body).toMatchObject({
      name: 'Renamed',
      settings: { maxDuration: 600, requireConsent: true },
      inviteDefaults: { expiresIn: '3d', emailTemplate: 'reminder' },
      metadata: { keep: 'yes', owner: 'ana' },
    });
    expect(response.body.settings).not.toHaveProperty('voice');
  });

  it('participantTitle is set by an update, kept when absent, and cleared by null', async () => {
    const campaign = await createCampaign(api);
    const set = await api.patch(`/v1/campaigns/${campaign.id}`, { participantTitle: 'A short study about onboarding' }).expect(200);
    expect(set.body.participantTitle).toBe('A short study about onboarding');
    const kept = await api.patch(`/v1/campaigns/${campaign.id}`, { name: 'Renamed internally' }).expect(200);
    expect(kept.body).toMatchObject({ name: 'Renamed internally', participantTitle: 'A short study about onboarding' });
    const cleared = await api.patch(`/v1/campaigns/${campaign.id}`, { participantTitle: null }).expect(200);
    expect(cleared.body.participantTitle).toBeNull();
    const row = await t.em().findOneOrFail(Campaign, { id: campaign.id });
    expect(row.participantTitle).toBeNull();
  });

  it('a participantTitle over 200 characters in an update answers 422 and changes nothing', async () => {
    const campaign = await createCampaign(api);
    const response = await api.patch(`/v1/campaigns/${campaign.id}`, { participantTitle: 'x'.repeat(201), name: 'Not stored' });
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields.map((f: { path: string }) => f.path)).toEqual(['participantTitle']);
    expect((await api.get(`/v1/campaigns/${campaign.id}`).expect(200)).body).toMatchObject({ name: campaign.name, participantTitle: null });
  });

  it('switching to an unpublished script answers 409 and changes nothing', async () => {
    const campaign = await createCampaign(api);
    const draft = await createScript(api);
    const response = await api.patch(`/v1/campaigns/${campaign.id}`, { scriptId: draft.id, name: 'Should not stick' });
    expect(response.status).toBe(409);
    const row = await t.em().findOneOrFail(Campaign, { id: campaign.id });
    expect(row.script.id).toBe(campaign.scriptId);
    expect(row.name).not.toBe('Should not stick');
  });

  it('projectId null unassigns the campaign', async () => {
    const project = await createProject(api);
    const campaign = await createCampaign(api, { projectId: project.id });
    const response = await api.patch(`/v1/campaigns/${campaign.id}`, { projectId: null }).expect(200);
    expect(response.body.projectId).toBeNull();
  });

  it('merged metadata over 50 keys answers 422', async () => {
    const campaign = await createCampaign(api, { metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])) });
    const response = await api.patch(`/v1/campaigns/${campaign.id}`, { metadata: { extra: 1 } });
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields[0].path).toBe('metadata');
  });
});

describe('campaign lifecycle', () => {
  it('pause, resume and archive answer 200 with the updated campaign', async () => {
    const campaign = await createCampaign(api);
    const paused = await api.post(`/v1/campaigns/${campaign.id}/pause`).expect(200);
    expect(paused.body.status).toBe('paused');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const pausedAgain = await api.post(`/v1/campaigns/${campaign.id}/pause`).expect(200);
    expect(pausedAgain.body).toMatchObject({ status: 'paused', updatedAt: paused.body.updatedAt });
    const resumed = await api.post(`/v1/campaigns/${campaign.id}/resume`).expect(200);
    expect(resumed.body.status).toBe('active');
    expect(Date.parse(resumed.body.updatedAt)).toBeGreaterThan(Date.parse(paused.body.updatedAt));
    const resumedAgain = await api.post(`/v1/campaigns/${campaign.id}/resume`).expect(200);
    expect(resumedAgain.body.updatedAt).toBe(resumed.body.updatedAt);
    const archived = await api.post(`/v1/campaigns/${campaign.id}/archive`).expect(200);
    expect(archived.body.status).toBe('archived');
    const archivedAt = (await t.em().findOneOrFail(Campaign, { id: campaign.id })).archivedAt;
    expect(archivedAt).toBeInstanceOf(Date);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const archivedAgain = await api.post(`/v1/campaigns/${campaign.id}/archive`).expect(200);
    expect(archivedAgain.body.updatedAt).toBe(archived.body.updatedAt);
    expect((await t.em().findOneOrFail(Campaign, { id: campaign.id })).archivedAt).toEqual(archivedAt);
  });

  it('an empty update changes nothing, not even updatedAt', async () => {
    const campaign = await createCampaign(api);
    const before = await api.get(`/v1/campaigns/${campaign.id}`).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const response = await api.patch(`/v1/campaigns/${campaign.id}`, {}).expect(200);
    expect(response.body).toEqual(before.body);
  });

  it('an archived campaign is final: pause, resume and update answer 409 CAMPAIGN_ARCHIVED', async () => {
    const campaign = await createCampaign(api);
    await api.post(`/v1/campaigns/${campaign.id}/archive`).expect(200);
    for (const response of [
      await api.post(`/v1/campaigns/${campaign.id}/resume`),
      await api.post(`/v1/campaigns/${campaign.id}/pause`),
      await api.patch(`/v1/campaigns/${campaign.id}`, { name: 'Back' }),
    ]) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('CAMPAIGN_ARCHIVED');
    }
    await api.post(`/v1/campaigns/${campaign.id}/archive`).expect(200);
  });

  it('delete answers 204, then the campaign is gone', async () => {
    const campaign = await createCampaign(api);
    const response = await api.delete(`/v1/campaigns/${campaign.id}`);
    expect(response.status).toBe(204);
    await api.get(`/v1/campaigns/${campaign.id}`).expect(404);
    await api.delete(`/v1/campaigns/${campaign.id}`).expect(404);
  });
});
