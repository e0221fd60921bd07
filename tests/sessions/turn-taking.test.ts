import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppRouter } from '../../server/trpc/app-router.js';
import { campaignTurnTaking } from '../../server/domains/campaigns/campaign-turn-taking.js';
import { turnTakingSummary } from '../../server/domains/sessions/turn-timing.js';
import { DEFAULT_TURN_TAKING } from '../../shared/schemas/turn-taking.js';
import { download, wav } from '../helpers/audio.js';
import { type Api, apiAs, createPublishedScript } from '../helpers/factories.js';
import { interviewFixture, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * Turn-taking you can see (issue "Voice-first interviews", part 6): `settings.turnTaking` on
 * campaigns and scripts, the page's `voiceTiming` report on each answer, what is stored per turn,
 * and the session's `turnTaking` summary.
 */

/** What the local speech providers take before they answer: the server's recognition and synthesis times are at least these. */
const STT_DELAY_MS = 150;
const TTS_DELAY_MS = 120;

let t: TestApp;
let tenant: TestTenant;
let api: Api;
let providers: Server;
/** The app listening, for the tRPC client. */
let listening: Server;
let trpcUrl: string;

/** A local OpenAI-compatible server: transcriptions and speech, each after its fixed delay. */
async function startProviders(): Promise<string> {
  providers = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.endsWith('/audio/transcriptions')) {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              task: 'transcribe',
              language: 'english',
              duration: 1,
              text: 'It went well overall.',
              segments: [{ id: 0, start: 0, end: 1, text: 'It went well overall.', avg_logprob: -0.1, no_speech_prob: 0.01 }],
            }),
          );
        }, STT_DELAY_MS);
      } else if (req.url?.endsWith('/audio/speech')) {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'audio/ogg' });
          res.end(Buffer.from('OggS spoken turn'));
        }, TTS_DELAY_MS);
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => providers.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(providers.address() as AddressInfo).port}/v1`;
}

beforeAll(async () => {
  const providerUrl = await startProviders();
  t = await startTestApp({ ...PARTICIPANT_BUDGET, STT_BASE_URL: providerUrl, TTS_BASE_URL: providerUrl, TTS_VOICES: 'alloy,nova' });
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  listening = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listening.once('listening', resolve));
  trpcUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/trpc`;
});

afterAll(async () => {
  await new Promise((resolve) => listening?.close(resolve));
  await t?.close();
  providers?.closeAllConnections();
  await new Promise((resolve) => providers?.close(resolve));
});

function trpcAs(authorization: string) {
  return createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: trpcUrl, headers: { Authorization: authorization } })] });
}

interface TimingRow {
  seq: number;
  speaker: 'ai' | 'participant';
  speech_ended_ms: number | null;
  end_of_turn_ms: number | null;
  manual_end: boolean | null;
  cut_off: boolean | null;
  audio_started_ms: number | null;
  barge_in: boolean | null;
  latency_ms: number | null;
  recognition_ms: number | null;
  interviewer_ms: number | null;
  synthesis_ms: number | null;
}

async function timingRows(sessionId: string): Promise<TimingRow[]> {
  return t.em().execute<TimingRow[]>(
    `select seq, speaker, (extract(epoch from speech_ended_at) * 1000)::float8 as speech_ended_ms, (extract(epoch from end_of_turn_at) * 1000)::float8 as end_of_turn_ms,
            manual_end, cut_off, (extract(epoch from audio_started_at) * 1000)::float8 as audio_started_ms, barge_in, latency_ms, recognition_ms, interviewer_ms, synthesis_ms
       from session_utterances where session_id = ? order by seq`,
    [sessionId],
  );
}

/** Open questions without follow-ups: each answer is followed by the next question. */
function openQuestions(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    id: `q${index + 1}`,
    text: `Question number ${index + 1}, please tell me more?`,
    type: 'open',
    followUp: { enabled: false },
  }));
}

function fieldPaths(body: any): string[] {
  return (body.error.details.fields as { path: string }[]).map((field) => field.path);
}

describe('settings.turnTaking', () => {
  it('is stored on a campaign and answered as given', async () => {
    const script = await createPublishedScript(api);
    const created = await api
      .post('/v1/campaigns', { name: 'Voice campaign', scriptId: script.id, settings: { turnTaking: { endOfTurnMs: 900, bargeIn: false } } })
      .expect(201);
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
    expect(fieldPaths(response.body).sort()).toEqual([
      'settings.turnTaking.bargeIn',
      'settings.turnTaking.endOfTurnMs',
      'settings.turnTaking.pauseMs',
      'settings.turnTaking.silenceMs',
    ]);
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
    const created = await api
      .post('/v1/campaigns', { name: 'Patch me', scriptId: script.id, settings: { voice: 'alloy', turnTaking: { endOfTurnMs: 900, pauseMs: 3000 } } })
      .expect(201);
    const path = `/v1/campaigns/${created.body.id}`;
    const patched = await api.patch(path, { settings: { turnTaking: { pauseMs: 2500, bargeIn: false } } }).expect(200);
    expect(patched.body.settings.turnTaking).toEqual({ endOfTurnMs: 900, pauseMs: 2500, bargeIn: false });
    const removedKey = await api.patch(path, { settings: { turnTaking: { endOfTurnMs: null } } }).expect(200);
    expect(removedKey.body.settings.turnTaking).toEqual({ pauseMs: 2500, bargeIn: false });
    const invalid = await api.patch(path, { settings: { turnTaking: { pauseMs: 499 } } }).expect(422);
    expect(fieldPaths(invalid.body)).toEqual(['settings.turnTaking.pauseMs']);
    const removed = await api.patch(path, { settings: { turnTaking: null } }).expect(200);
    expect(removed.body.settings).toEqual({ voice: 'alloy' });
    // A patch with nulls where there is no turnTaking yet removes nothing and stores no null (the fuzzer found a 500 here).
    const fresh = await api.patch(path, { settings: { turnTaking: { pauseMs: null, bargeIn: false } } }).expect(200);
    expect(fresh.body.settings.turnTaking).toEqual({ bargeIn: false });
    const otherScript = await createPublishedScript(api);
    const scriptPatched = await api.patch(`/v1/scripts/${otherScript.id}`, { settings: { turnTaking: { pauseMs: null, bargeIn: null } } }).expect(200);
    expect(scriptPatched.body.settings.turnTaking).toEqual({});
  });

  it('scripts carry it too, and the campaign wins key by key over the script, then the defaults', async () => {
    const script = await createPublishedScript(api, { settings: { turnTaking: { endOfTurnMs: 1200, pauseMs: 4000 } } });
    const read = await api.get(`/v1/scripts/${script.id}`).expect(200);
    expect(read.body.settings.turnTaking).toEqual({ endOfTurnMs: 1200, pauseMs: 4000 });
    const bad = await api.post('/v1/scripts', {
      name: 'Bad script',
      systemPrompt: 'You interview.',
      questions: [{ id: 'q', text: 'Why?', type: 'open' }],
      settings: { turnTaking: { endOfTurnMs: 6000 } },
    });
    expect(bad.status).toBe(422);
    expect(fieldPaths(bad.body)).toEqual(['settings.turnTaking.endOfTurnMs']);

    expect(campaignTurnTaking({ settings: { turnTaking: { endOfTurnMs: 800 } } }, read.body.settings)).toEqual({
      endOfTurnMs: 800,
      pauseMs: 4000,
      bargeIn: true,
    });
    expect(campaignTurnTaking({ settings: {} }, null)).toEqual(DEFAULT_TURN_TAKING);
    expect(campaignTurnTaking({ settings: { turnTaking: { bargeIn: false } } })).toEqual({ ...DEFAULT_TURN_TAKING, bargeIn: false });
  });
});

/** The participant's clock in this interview: any epoch, the figures are differences. */
const T0 = 1_750_000_000_000;

describe('a voice interview over the participant API', () => {
  let sessionId: string;
  let turns: { utteranceId: string; audioUrl?: string }[];

  beforeAll(async () => {
    const { invite } = await interviewFixture(api, { questions: openQuestions(6) });
    const participant = participantAs(t.http, invite.token);
    const started = await participant.start().expect(201);
    sessionId = started.body.session.id;
    turns = [started.body.turn];
    // Answer k ends its speech at S[k]; the AI turn k started playing at A[k]. Latencies of turns
    // 2..5: A[k] − S[k−1] = 900, 1200, 1500, 3000 ms. Turn 6 never played (muted): no latency.
    const S = [T0 + 10_000, T0 + 20_000, T0 + 30_000, T0 + 40_000, T0 + 50_000, T0 + 60_000];
    const A = [T0 + 5_000, S[0]! + 900, S[1]! + 1200, S[2]! + 1500, S[3]! + 3000, null];
    const reports = [
      { speechEndedAt: S[0], endOfTurnAt: S[0]! + 700, aiAudioStartedAt: A[0] },
      { speechEndedAt: S[1], endOfTurnAt: S[1]! + 700, aiAudioStartedAt: A[1], bargeIn: true },
      { speechEndedAt: S[2], endOfTurnAt: S[2]! + 700, aiAudioStartedAt: A[2], previousCutOff: true },
      { speechEndedAt: S[3], endOfTurnAt: S[3]! + 650, aiAudioStartedAt: A[3], previousCutOff: false, manual: true },
      { speechEndedAt: S[4], endOfTurnAt: S[4]! + 700, aiAudioStartedAt: A[4], bargeIn: true },
      { speechEndedAt: S[5], endOfTurnAt: S[5]! + 700, aiAudioStartedAt: A[5] },
    ];
    for (const [index, report] of reports.entries()) {
      const answer =
        index === 2
          ? // A recording without the browser's text: the server transcribes it (recognition time on the next turn).
            participant.answerAudio(wav(1), 'answer.wav', { utteranceId: turns.at(-1)!.utteranceId, voiceTiming: JSON.stringify(report) })
          : participant.answer(`Answer number ${index + 1}, with enough words to stand on its own.`, { voiceTiming: report });
      const response = await answer.expect(200);
      if (response.body.turn) turns.push(response.body.turn);
    }
  });

  it('stores the answer figures, the AI turn figures and the latency of each turn', async () => {
    const rows = await timingRows(sessionId);
    const ai = rows.filter((row) => row.speaker === 'ai');
    const answers = rows.filter((row) => row.speaker === 'participant');
    expect(answers.map((row) => row.speech_ended_ms)).toEqual([T0 + 10_000, T0 + 20_000, T0 + 30_000, T0 + 40_000, T0 + 50_000, T0 + 60_000]);
    expect(answers.map((row) => row.end_of_turn_ms! - row.speech_ended_ms!)).toEqual([700, 700, 700, 650, 700, 700]);
    expect(answers.map((row) => row.manual_end)).toEqual([null, null, null, true, null, null]);
    // The third answer said the second was cut off; the fourth that the third was not; the last one is never judged.
    expect(answers.map((row) => row.cut_off)).toEqual([null, true, false, null, null, null]);
    // Six questions and the closing words.
    expect(ai).toHaveLength(7);
    expect(ai.map((row) => row.latency_ms)).toEqual([null, 900, 1200, 1500, 3000, null, null]);
    expect(ai.map((row) => row.barge_in)).toEqual([null, true, null, null, true, null, null]);
    expect(ai[0]!.audio_started_ms).toBe(T0 + 5_000);
    expect(ai[5]!.audio_started_ms).toBeNull();
    // The server's own time: the recognizer only on the turn after the transcribed recording, the interviewer on every turn it chose.
    expect(ai.map((row) => row.recognition_ms === null)).toEqual([true, true, true, false, true, true, true]);
    expect(ai[3]!.recognition_ms).toBeGreaterThanOrEqual(STT_DELAY_MS);
    expect(ai[0]!.interviewer_ms).toBeNull();
    for (const row of ai.slice(1)) expect(row.interviewer_ms).toBeGreaterThanOrEqual(0);
  });

  it("the session record's turnTaking: nearest-rank p50/p95 of the latencies, cut-offs and barge-ins", async () => {
    const expected = { turns: 4, latencyP50Ms: 1200, latencyP95Ms: 3000, cutOffs: 1, bargeIns: 2 };
    const session = await api.get(`/v1/sessions/${sessionId}`).expect(200);
    expect(session.body.turnTaking).toEqual(expected);
    const campaignId = session.body.campaignId;
    const list = await api.get(`/v1/campaigns/${campaignId}/sessions`).expect(200);
    expect(list.body.data.find((row: { id: string }) => row.id === sessionId).turnTaking).toEqual(expected);
    const byDuration = await api.get(`/v1/campaigns/${campaignId}/sessions?sort=duration`).expect(200);
    expect(byDuration.body.data.find((row: { id: string }) => row.id === sessionId).turnTaking).toEqual(expected);
    const client = trpcAs(tenant.authorization);
    expect((await client.sessions.get.query({ sessionId })).turnTaking).toEqual(expected);
  });

  it("the dashboard's session view: the summary, and each turn's figures beside it", async () => {
    const view = await trpcAs(tenant.authorization).workspace.session.query({ sessionId });
    expect(view.session.turnTaking).toEqual({ turns: 4, latencyP50Ms: 1200, latencyP95Ms: 3000, cutOffs: 1, bargeIns: 2 });
    const ai = view.utterances.filter((utterance) => utterance.speaker === 'ai');
    expect(ai.map((utterance) => ('latencyMs' in utterance.timing ? utterance.timing.latencyMs : 'none'))).toEqual([null, 900, 1200, 1500, 3000, null, null]);
    expect(ai[1]!.timing).toMatchObject({ bargeIn: true });
    expect(ai[3]!.timing).toMatchObject({ recognitionMs: expect.any(Number) });
    const answers = view.utterances.filter((utterance) => utterance.speaker === 'participant');
    expect(answers.map((utterance) => utterance.timing)).toEqual([null, true, false, null, null, null].map((cutOff) => ({ cutOff })));
  });

  it("a turn's synthesis time is recorded when its audio link is first fetched, and kept on later fetches", async () => {
    const turn = turns[1]!;
    expect(turn.audioUrl).toBeDefined();
    await download(t, turn.audioUrl!).expect(200);
    // Written beside the stream, not before it: read once it is there.
    const row = await vi.waitFor(async () => {
      const [found] = await t.em().execute<{ synthesis_ms: number | null }[]>(`select synthesis_ms from session_utterances where id = ?`, [turn.utteranceId]);
      expect(found!.synthesis_ms).not.toBeNull();
      return found!;
    });
    expect(row.synthesis_ms).toBeGreaterThanOrEqual(TTS_DELAY_MS);
    expect(row.synthesis_ms).toBeLessThan(TTS_DELAY_MS + 2000);
    // Cached now: the second fetch is quicker, and the first figure stays.
    await download(t, turn.audioUrl!).expect(200);
    const [again] = await t.em().execute<{ synthesis_ms: number | null }[]>(`select synthesis_ms from session_utterances where id = ?`, [turn.utteranceId]);
    expect(again!.synthesis_ms).toBe(row.synthesis_ms);
    const view = await trpcAs(tenant.authorization).workspace.session.query({ sessionId });
    expect(view.utterances.find((utterance) => utterance.id === turn.utteranceId)!.timing).toMatchObject({ synthesisMs: row.synthesis_ms });
  });

  it('another organization sees none of it: 404 for the session and the view, and no summary under its id', async () => {
    const other = await t.createTenant();
    await apiAs(t.http, other).get(`/v1/sessions/${sessionId}`).expect(404);
    await expect(trpcAs(other.authorization).workspace.session.query({ sessionId })).rejects.toMatchObject({ data: { httpStatus: 404 } });
    expect(await turnTakingSummary(t.em(), other, { sessionId })).toBeNull();
    expect(await turnTakingSummary(t.em(), tenant, { sessionId })).toMatchObject({ turns: 4 });
  });
});

describe('sessions without voice turns', () => {
  it('have turnTaking null (typed answers report nothing)', async () => {
    const { invite } = await interviewFixture(api, { questions: openQuestions(2) });
    const participant = participantAs(t.http, invite.token);
    const started = await participant.start().expect(201);
    await participant.answer('A typed answer with a few words in it.').expect(200);
    const session = await api.get(`/v1/sessions/${started.body.session.id}`).expect(200);
    expect(session.body.turnTaking).toBeNull();
    const view = await trpcAs(tenant.authorization).workspace.session.query({ sessionId: started.body.session.id });
    expect(view.session.turnTaking).toBeNull();
  });
});

describe('a bad voiceTiming report', () => {
  async function pendingSession() {
    const { invite } = await interviewFixture(api, { questions: openQuestions(2) });
    const participant = participantAs(t.http, invite.token);
    const started = await participant.start().expect(201);
    return { participant, sessionId: started.body.session.id as string, turnId: started.body.turn.utteranceId as string };
  }

  async function expectNothingStored(sessionId: string, turnId: string) {
    const rows = await timingRows(sessionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.audio_started_ms).toBeNull();
    const [session] = await t.em().execute<{ pending_utterance_id: string }[]>(`select pending_utterance_id from sessions where id = ?`, [sessionId]);
    expect(session!.pending_utterance_id).toBe(turnId);
    const [files] = await t.em().execute<{ count: number }[]>(`select count(*)::int as count from session_files where session_id = ?`, [sessionId]);
    expect(files!.count).toBe(0);
  }

  it('in a JSON answer answers 422 naming each field, and stores nothing', async () => {
    const { participant, sessionId, turnId } = await pendingSession();
    const response = await participant
      .answer('An answer that must not be kept.', { voiceTiming: { speechEndedAt: -5, endOfTurnAt: 1.5, bargeIn: 'yes', aiAudioStartedAt: T0, silence: 3 } })
      .expect(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(fieldPaths(response.body).sort()).toEqual(['voiceTiming.bargeIn', 'voiceTiming.endOfTurnAt', 'voiceTiming.silence', 'voiceTiming.speechEndedAt']);
    const notObject = await participant.answer('An answer that must not be kept.', { voiceTiming: 'soon' }).expect(422);
    expect(fieldPaths(notObject.body)).toEqual(['voiceTiming']);
    await expectNothingStored(sessionId, turnId);
  });

  it('whose turn ends before its speech did, or that barges in on audio that never played, answers 422', async () => {
    const { participant, sessionId, turnId } = await pendingSession();
    const early = await participant.answer('An answer.', { voiceTiming: { speechEndedAt: T0 + 1000, endOfTurnAt: T0 + 999 } }).expect(422);
    expect(early.body.error.details.fields).toEqual([{ path: 'voiceTiming.endOfTurnAt', message: 'must not be before speechEndedAt' }]);
    const bargeIn = await participant.answer('An answer.', { voiceTiming: { aiAudioStartedAt: null, bargeIn: true } }).expect(422);
    expect(fieldPaths(bargeIn.body)).toEqual(['voiceTiming.bargeIn']);
    await expectNothingStored(sessionId, turnId);
  });

  it('in a multipart answer: not JSON, or JSON with bad values, answers 422 naming the field; the recording is not kept', async () => {
    const { participant, sessionId, turnId } = await pendingSession();
    const notJson = await participant.answerAudio(wav(1), 'answer.wav', { text: 'Spoken words.', voiceTiming: '{speechEndedAt: 5' }).expect(422);
    expect(notJson.body.error.details.fields).toEqual([{ path: 'voiceTiming', message: 'must be a JSON object' }]);
    const badValue = await participant
      .answerAudio(wav(1), 'answer.wav', { text: 'Spoken words.', voiceTiming: JSON.stringify({ endOfTurnAt: 'soon', manual: 1 }) })
      .expect(422);
    expect(fieldPaths(badValue.body).sort()).toEqual(['voiceTiming.endOfTurnAt', 'voiceTiming.manual']);
    const early = await participant
      .answerAudio(wav(1), 'answer.wav', { text: 'Spoken words.', voiceTiming: JSON.stringify({ speechEndedAt: T0 + 1000, endOfTurnAt: T0 }) })
      .expect(422);
    expect(fieldPaths(early.body)).toEqual(['voiceTiming.endOfTurnAt']);
    await expectNothingStored(sessionId, turnId);
  });

  it('a multipart answer may carry every field at once', async () => {
    const { participant, turnId } = await pendingSession();
    await participant
      .answerAudio(wav(1), 'answer.wav', {
        text: 'Spoken words.',
        startTime: '0',
        endTime: '1',
        confidence: '0.9',
        utteranceId: turnId,
        voiceTiming: JSON.stringify({ speechEndedAt: T0, endOfTurnAt: T0 + 700, aiAudioStartedAt: T0 - 4000 }),
      })
      .expect(200);
  });
});
