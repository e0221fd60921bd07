import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { placeAiTurns, type TimelineTurn } from '../../server/domains/sessions/ai-turn-placement.js';
import { findExecutable } from '../../server/lib/child-process.js';
import { prepareSessionFiles } from '../../server/domains/reports/prepare-session-files.js';
import { pruneTurnAudio } from '../../server/speech/prune-turn-audio.js';
import { SpeechSynthesisError, type SpeechSynthesizer } from '../../server/speech/speech-synthesizer.js';
import { TURN_AUDIO_PREFIX, TurnAudio } from '../../server/speech/turn-audio.js';
import { asBytes, download, wav } from '../helpers/audio.js';
import { type Api, apiAs, createScript } from '../helpers/factories.js';
import { interviewFixture, letTimePass, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { type ListeningTestApp, startListeningTestApp, type TrpcClient } from '../helpers/members.js';
import { runCompletionChain } from '../helpers/results.js';
import type { TestApp, TestTenant } from '../helpers/test-app.js';
import { startTestApp } from '../helpers/test-app.js';

/**
 * Issue 29, part 5: a voice session's three recordings (the participant's track, the AI's track,
 * both merged), each on the session's timeline; the spoken-turn cache's pruning; and a script's
 * settings.voice refused like a campaign's.
 */

const run = promisify(execFile);

const espeak = await findExecutable('espeak-ng');
const ffmpeg = await findExecutable('ffmpeg');
const ffprobe = await findExecutable('ffprobe');
const skip = !espeak ? 'espeak-ng not found (apt-get install espeak-ng)' : !ffmpeg || !ffprobe ? 'ffmpeg/ffprobe not found (apt-get install ffmpeg)' : null;
if (skip) console.log(`skipping the session recordings tests: ${skip}`);

/** Two open questions without follow-ups: the second answer completes the interview. */
const TWO_QUESTIONS = [
  { id: 'week', text: 'How was your first week with the product?', type: 'open', followUp: { enabled: false } },
  { id: 'improve', text: 'What should we improve first?', type: 'open', followUp: { enabled: false } },
];

let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'session-tracks-test-'));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function pcm(audio: Buffer, rate = 16_000): Promise<Int16Array> {
  const file = path.join(work, randomUUID());
  await writeFile(file, audio);
  const { stdout } = await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', String(rate), '-'], {
    encoding: 'buffer',
    maxBuffer: 256 * 1024 * 1024,
  });
  return new Int16Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.length / 2));
}

async function probedSeconds(audio: Buffer): Promise<number> {
  const file = path.join(work, `${randomUUID()}.ogg`);
  await writeFile(file, audio);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

function rms(samples: Int16Array, from: number, to: number, rate = 16_000): number {
  let sum = 0;
  let count = 0;
  for (let i = Math.max(0, Math.round(from * rate)); i < Math.min(samples.length, Math.round(to * rate)); i++) {
    sum += samples[i]! * samples[i]!;
    count++;
  }
  return Math.sqrt(sum / Math.max(1, count));
}

async function cachedTurns(t: TestApp): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of t.runtime.services.storage.list(TURN_AUDIO_PREFIX)) keys.push(file.key);
  return keys.sort();
}

/** The session's timeline, start to end, in seconds (17 and the moments the test itself took). */
async function sessionLength(t: TestApp, sessionId: string): Promise<number> {
  const [row] = await t
    .em()
    .execute<{ seconds: number }[]>(`select extract(epoch from completed_at - started_at)::float8 as seconds from sessions where id = ?`, [sessionId]);
  expect(row!.seconds).toBeGreaterThanOrEqual(17);
  expect(row!.seconds).toBeLessThan(19);
  return row!.seconds;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface FileDto {
  id: string;
  kind: string;
  name: string;
  contentType: string;
  durationSeconds: number | null;
  url: string;
}

async function filesOf(api: Api, sessionId: string): Promise<FileDto[]> {
  return (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data;
}

/**
 * A voice interview on the session's clock: the first question at 0 s (its audio fetched by the
 * page, so cached), the answer 3–8 s (a 440 Hz recording of 5 s sent at 8 s), the second question
 * at 8 s (never fetched: the browser could have spoken it), the answer 12–17 s (660 Hz), completed
 * at 17 s. espeak-ng says each question in about two seconds.
 */
async function voiceSession(
  t: TestApp,
  api: Api,
  /** The page's report with each answer (`voiceTiming`), on its own clock. */
  timings: [Record<string, unknown>, Record<string, unknown>] | null = null,
): Promise<{ sessionId: string; firstAudioUrl: string }> {
  const { invite } = await interviewFixture(api, { questions: TWO_QUESTIONS });
  const participant = participantAs(t.http, invite.token);
  const started = (await participant.start().expect(201)).body;
  const sessionId: string = started.session.id;
  const timing = (index: 0 | 1): Record<string, string> => (timings ? { voiceTiming: JSON.stringify(timings[index]) } : {});
  await letTimePass(t, sessionId, 8);
  await participant.answerAudio(wav(5, 440), 'a1.wav', { text: 'My name is Ada Lovelace and the first week went well.', ...timing(0) }).expect(200);
  await letTimePass(t, sessionId, 9);
  const last = (await participant.answerAudio(wav(5, 660), 'a2.wav', { text: 'The setup could be faster and the emails clearer.', ...timing(1) }).expect(200))
    .body;
  expect(last.session.status).toBe('completed');
  return { sessionId, firstAudioUrl: started.turn.audioUrl };
}

describe('placeAiTurns', () => {
  const ai = (startTime: number, audioSeconds: number, heardAt: number | null = null): TimelineTurn => ({
    speaker: 'ai',
    startTime,
    endTime: startTime + 2,
    audioSeconds,
    heardAt,
  });
  const answer = (startTime: number, endTime: number): TimelineTurn => ({ speaker: 'participant', startTime, endTime });

  it('places each turn at the time the server produced it, or where the page heard it when it said so', () => {
    expect(placeAiTurns([ai(0, 2), answer(3, 8), ai(8, 2, 8.6), answer(12, 17)], 17)).toEqual([
      { index: 0, offsetSeconds: 0, seconds: 2, from: 'produced', adjusted: null },
      { index: 2, offsetSeconds: 8.6, seconds: 2, from: 'heard', adjusted: null },
    ]);
  });

  it('trims a turn where the following answer begins (a barge-in), and never starts one before the answer it follows ended', () => {
    expect(placeAiTurns([ai(0, 4), answer(2.5, 6), ai(5.5, 2), answer(9, 10)], 10)).toEqual([
      { index: 0, offsetSeconds: 0, seconds: 2.5, from: 'produced', adjusted: 'trimmed' },
      { index: 2, offsetSeconds: 6, seconds: 2, from: 'produced', adjusted: null },
    ]);
  });

  it('shifts back a turn whose time falls after the following answer began, to end where it begins; leaves out what has no room', () => {
    expect(placeAiTurns([answer(0, 1), ai(5, 2), answer(4, 6), ai(6, 2), answer(6, 7)], 7)).toEqual([
      { index: 1, offsetSeconds: 2, seconds: 2, from: 'produced', adjusted: 'shifted' },
    ]);
  });

  it('leaves out the closing words (said at the session end) and turns without audio; an unanswered last question ends with the session', () => {
    expect(placeAiTurns([ai(0, 2), answer(3, 8), ai(8, 0), answer(9, 10), { speaker: 'ai', startTime: 10, endTime: 12, audioSeconds: 2 }], 10)).toEqual([
      { index: 0, offsetSeconds: 0, seconds: 2, from: 'produced', adjusted: null },
    ]);
    expect(placeAiTurns([ai(0, 2), answer(3, 8), ai(8, 3)], 9.5)).toEqual([
      { index: 0, offsetSeconds: 0, seconds: 2, from: 'produced', adjusted: null },
      { index: 2, offsetSeconds: 8, seconds: 1.5, from: 'produced', adjusted: 'trimmed' },
    ]);
  });
});

describe.skipIf(skip !== null)('a voice session with spoken AI turns (espeak-ng)', () => {
  let t: ListeningTestApp;
  let tenant: TestTenant;
  let api: Api;
  let client: TrpcClient;

  beforeAll(async () => {
    t = await startListeningTestApp({ ...PARTICIPANT_BUDGET, TTS_PROVIDER: 'espeak-ng' });
    tenant = await t.createTenant();
    api = apiAs(t.http, tenant);
    client = t.clientOf(tenant);
  });
  afterAll(() => t?.close());

  it(
    "completes with three recordings as long as the session: the participant's track silent where the AI spoke, the AI's track silent where the participant spoke, the merged one holding both",
    { timeout: 120_000 },
    async () => {
      const { sessionId, firstAudioUrl } = await voiceSession(t, api);
      // The second question was spoken ahead when the spoken answer before it was decided; taken out
      // of the cache, so the AI's track has to synthesize it.
      await waitFor(async () => (await cachedTurns(t)).length === 1);
      for (const key of await cachedTurns(t)) await t.runtime.services.storage.delete(key);
      // The first question's audio was fetched by the page: cached. The second is not any more.
      await asBytes(t.http.get(new URL(firstAudioUrl).pathname)).expect(200);
      await waitFor(async () => (await cachedTurns(t)).length === 1);

      await runCompletionChain(t, sessionId);
      const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
      // 17 s moved into the past, and the real time the test took (a second more on a loaded machine).
      expect([17, 18]).toContain(session.duration);
      const length = await sessionLength(t, sessionId);
      const files = await filesOf(api, sessionId);
      const recordings = Object.fromEntries(files.filter((file) => file.kind.endsWith('_audio')).map((file) => [file.kind, file]));
      expect(Object.keys(recordings).sort()).toEqual(['ai_audio', 'merged_audio', 'participant_audio']);
      expect(recordings.merged_audio).toMatchObject({ name: `${sessionId}.ogg`, contentType: 'audio/ogg' });
      expect(recordings.participant_audio).toMatchObject({ name: `${sessionId}-participant.ogg`, contentType: 'audio/ogg' });
      expect(recordings.ai_audio).toMatchObject({ name: `${sessionId}-ai.ogg`, contentType: 'audio/ogg' });
      // The second question was spoken for the AI's track and is cached now; the closing words, said after the end, were not.
      expect(await cachedTurns(t)).toHaveLength(2);

      const decoded: Record<string, Int16Array> = {};
      for (const kind of ['participant_audio', 'ai_audio', 'merged_audio']) {
        const file = recordings[kind]!;
        const response = await download(t, file.url).expect(200);
        expect(response.headers['content-disposition']).toMatch(/^inline;/);
        const bytes = response.body as Buffer;
        expect(file.durationSeconds, kind).toBeCloseTo(length, 1);
        const probed = await probedSeconds(bytes);
        expect(probed, kind).toBeCloseTo(length, 1);
        console.info(`${kind}: ${probed} s by ffprobe, the session ${length.toFixed(3)} s`);
        decoded[kind] = await pcm(bytes);
      }
      const { participant_audio: participant, ai_audio: aiTrack, merged_audio: merged } = decoded as Record<string, Int16Array>;
      // Windows on the session's timeline from the utterances as recorded (the test's own moments shift them a little).
      const rows = await t
        .em()
        .execute<{ speaker: string; start_time: number; end_time: number }[]>(
          `select speaker, start_time, end_time from session_utterances where session_id = ? order by seq`,
          [sessionId],
        );
      const [q1, a1, q2, a2] = rows;
      expect(rows.map((row) => row.speaker)).toEqual(['ai', 'participant', 'ai', 'participant', 'ai']);
      const windows = {
        firstQuestion: [q1!.start_time + 0.3, q1!.start_time + 1.5],
        firstAnswer: [a1!.start_time + 0.3, a1!.end_time - 0.3],
        secondQuestion: [q2!.start_time + 0.3, q2!.start_time + 1.3],
        secondAnswer: [a2!.start_time + 0.3, a2!.end_time - 0.3],
        nobody: [q2!.start_time + 2.5, a2!.start_time - 0.3],
      } as const;
      const level = (samples: Int16Array, window: keyof typeof windows) => rms(samples, windows[window][0], windows[window][1]);
      const figures = Object.fromEntries(
        Object.entries(decoded).map(([kind, samples]) => [
          kind,
          Object.fromEntries(Object.keys(windows).map((window) => [window, Math.round(level(samples, window as keyof typeof windows))])),
        ]),
      );
      console.info(`RMS per window (16-bit): ${JSON.stringify(figures)}`);
      for (const window of ['firstQuestion', 'secondQuestion'] as const) {
        expect(level(participant!, window), `participant track, ${window}`).toBeLessThan(30);
        expect(level(aiTrack!, window), `AI track, ${window}`).toBeGreaterThan(500);
        expect(level(merged!, window), `merged, ${window}`).toBeGreaterThan(500);
      }
      for (const window of ['firstAnswer', 'secondAnswer'] as const) {
        expect(level(participant!, window), `participant track, ${window}`).toBeGreaterThan(2000);
        expect(level(aiTrack!, window), `AI track, ${window}`).toBeLessThan(30);
        expect(level(merged!, window), `merged, ${window}`).toBeGreaterThan(2000);
      }
      for (const samples of [participant!, aiTrack!, merged!]) expect(level(samples, 'nobody')).toBeLessThan(30);
    },
  );

  it(
    "places each AI turn where the page heard it (its report, on a clock 17 minutes off), trimmed where the participant's answer began",
    { timeout: 120_000 },
    async () => {
      // The page's clock: anything, only differences count.
      const clock = Date.now() - 17 * 60_000;
      // The first question heard from 2 s (the answer, 3–8 s, began before its audio was over: trimmed at 3 s); the second 1 s after it was put.
      const { sessionId } = await voiceSession(t, api, [
        { aiAudioStartedAt: clock + 2000, speechEndedAt: clock + 7900, endOfTurnAt: clock + 8000, bargeIn: true },
        { aiAudioStartedAt: clock + 10_000, speechEndedAt: clock + 16_900, endOfTurnAt: clock + 17_000 },
      ]);
      await runCompletionChain(t, sessionId);
      const rows = await t
        .em()
        .execute<{ speaker: string; start_time: number; end_time: number }[]>(
          `select speaker, start_time, end_time from session_utterances where session_id = ? order by seq`,
          [sessionId],
        );
      const [q1, a1, q2, a2] = rows;
      const firstHeard = a1!.end_time - 6;
      const secondHeard = a2!.end_time - 7;
      expect(firstHeard).toBeGreaterThan(q1!.start_time + 1.5);
      expect(secondHeard).toBeGreaterThan(q2!.start_time + 0.8);
      const files = await filesOf(api, sessionId);
      const aiTrack = await pcm((await download(t, files.find((file) => file.kind === 'ai_audio')!.url).expect(200)).body as Buffer);
      const levels = {
        beforeFirstHeard: rms(aiTrack, 0.2, firstHeard - 0.2),
        firstHeard: rms(aiTrack, firstHeard + 0.2, a1!.start_time - 0.1),
        firstAnswer: rms(aiTrack, a1!.start_time + 0.1, a1!.end_time),
        beforeSecondHeard: rms(aiTrack, a1!.end_time + 0.1, secondHeard - 0.2),
        secondHeard: rms(aiTrack, secondHeard + 0.2, secondHeard + 1.2),
      };
      console.info(`AI track RMS where heard: ${JSON.stringify(Object.fromEntries(Object.entries(levels).map(([key, value]) => [key, Math.round(value)])))}`);
      expect(levels.beforeFirstHeard).toBeLessThan(30);
      expect(levels.firstHeard).toBeGreaterThan(500);
      // Trimmed where the answer began: the rest of the question is not under the participant's answer.
      expect(levels.firstAnswer).toBeLessThan(30);
      expect(levels.beforeSecondHeard).toBeLessThan(30);
      expect(levels.secondHeard).toBeGreaterThan(500);
    },
  );

  it(
    "a synthesizer that fails at merge time (a provider down): no AI track, the participant's and the merged recordings (the answers alone) still made, logged",
    { timeout: 60_000 },
    async () => {
      const { sessionId } = await voiceSession(t, api);
      await runJobsOnce(t, { tasks: ['session__generate_transcript', 'session__generate_insights'] });
      const real = t.runtime.services.turnAudio!.synthesizer;
      const down: SpeechSynthesizer = {
        name: real.name,
        contentType: real.contentType,
        voices: real.voices,
        defaultVoice: real.defaultVoice,
        cacheScope: 'down',
        synthesize: async () => {
          throw new SpeechSynthesisError('provider_error', 'speech provider answered 503');
        },
      };
      const { logger } = t.runtime.services;
      const warn = vi.spyOn(logger, 'warn');
      let warnings: unknown[];
      try {
        await prepareSessionFiles(
          { em: t.em(), services: { ...t.runtime.services, turnAudio: new TurnAudio(down, t.runtime.services.storage, logger) } },
          { sessionId },
        );
        warnings = warn.mock.calls.map((call) => call[1]);
      } finally {
        warn.mockRestore();
      }
      const files = await filesOf(api, sessionId);
      // The recordings; the exports come from their own job (session__prepare_exports).
      expect(files.map((file) => file.kind).sort()).toEqual(['audio', 'audio', 'merged_audio', 'participant_audio']);
      expect(warnings).toEqual(["AI's track not made; the session's other files are"]);
      const merged = await pcm((await download(t, files.find((file) => file.kind === 'merged_audio')!.url).expect(200)).body as Buffer);
      expect(rms(merged, 0.3, 1.5)).toBeLessThan(30);
    },
  );

  it("a redaction silences the answer in the participant's track as in the merged one, and leaves the AI's track as it was", { timeout: 120_000 }, async () => {
    const { sessionId } = await voiceSession(t, api);
    await runCompletionChain(t, sessionId);
    const before = Object.fromEntries((await filesOf(api, sessionId)).map((file) => [file.kind, file]));
    const [answer, second] = await t
      .em()
      .execute<{ id: string; text: string; start_time: number; end_time: number }[]>(
        `select id, text, start_time, end_time from session_utterances where session_id = ? and speaker = 'participant' order by seq`,
        [sessionId],
      );
    const from = answer!.text.indexOf('Ada Lovelace');
    const result = await client.redactions.redact.mutate({
      sessionId,
      utteranceId: answer!.id,
      start: from,
      end: from + 'Ada Lovelace'.length,
      expectedText: 'Ada Lovelace',
    });
    expect(result.audio.mode).toBe('utterance');
    expect(result.audio.files.map((file) => file.kind).sort()).toEqual(['audio', 'merged_audio', 'participant_audio']);
    expect(result.audio.files.find((file) => file.kind === 'participant_audio')).toMatchObject({
      fileId: before.participant_audio!.id,
      start: answer!.start_time,
    });

    const after = Object.fromEntries((await filesOf(api, sessionId)).map((file) => [file.kind, file]));
    const participant = await pcm((await download(t, after.participant_audio!.url).expect(200)).body as Buffer);
    expect(rms(participant, answer!.start_time + 0.1, answer!.end_time - 0.1)).toBeLessThan(30);
    // The second answer is as it was.
    expect(rms(participant, second!.start_time + 0.3, second!.end_time - 0.3)).toBeGreaterThan(2000);
    const merged = await pcm((await download(t, after.merged_audio!.url).expect(200)).body as Buffer);
    expect(rms(merged, answer!.start_time + 0.1, answer!.end_time - 0.1)).toBeLessThan(30);
    // The AI's track holds no participant speech: the same file, not rewritten.
    const [aiRow] = await t
      .em()
      .execute<{ updated_at: Date; created_at: Date }[]>(`select created_at, updated_at from session_files where id = ?`, [before.ai_audio!.id]);
    expect(aiRow!.updated_at).toEqual(aiRow!.created_at);
    expect(after.ai_audio!.id).toBe(before.ai_audio!.id);
  });

  it('a script refuses a settings.voice the synthesizer does not have: 422 at the field, on create, update, new version and import; nothing is written', async () => {
    const refused = await api
      .post('/v1/scripts', { name: 'Voices', systemPrompt: 'Be kind.', questions: TWO_QUESTIONS, settings: { voice: 'Samantha' } })
      .expect(422);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ path: 'settings.voice', message: expect.stringContaining('"Samantha" is not a voice') }] },
    });
    expect((await api.get('/v1/scripts').expect(200)).body.data.map((script: { name: string }) => script.name)).not.toContain('Voices');

    const script = await createScript(api, { settings: { voice: 'onyx' } });
    const updated = await api.patch(`/v1/scripts/${script.id}`, { settings: { voice: 'robot' } }).expect(422);
    expect(updated.body.error.details.fields).toEqual([{ path: 'settings.voice', message: expect.stringContaining('available: alloy') }]);
    const versioned = await api.post(`/v1/scripts/${script.id}/versions`, { settings: { voice: 'robot' } }).expect(422);
    expect(versioned.body.error.details.fields).toEqual([{ path: 'settings.voice', message: expect.stringContaining('"robot" is not a voice') }]);
    const current = (await api.get(`/v1/scripts/${script.id}`).expect(200)).body;
    expect([current.version, current.settings.voice]).toEqual([1, 'onyx']);
    // null removes the key (merge patch): nothing to check.
    await api.patch(`/v1/scripts/${script.id}`, { settings: { voice: 'nova' } }).expect(200);
    await api.patch(`/v1/scripts/${script.id}`, { settings: { voice: null } }).expect(200);

    const exported = (await api.get(`/v1/scripts/${script.id}/export`).expect(200)).body;
    const imported = await api
      .post('/v1/scripts/import', { ...exported, script: { ...exported.script, settings: { ...exported.script.settings, voice: 'Daniel' } } })
      .expect(422);
    expect(imported.body.error.details.fields).toEqual([{ path: 'script.settings.voice', message: expect.stringContaining('"Daniel" is not a voice') }]);
    await api
      .post('/v1/scripts/import', { ...exported, script: { ...exported.script, settings: { ...exported.script.settings, voice: 'shimmer' } } })
      .expect(201);
  });

  it('the spoken-turn cache: entries not used for TTS_CACHE_MAX_AGE_DAYS (30 here) are pruned daily; fresh ones, and old ones served again, are kept', async () => {
    const storage = t.runtime.services.storage;
    const filesRoot = path.join(t.dataDir, 'files');
    const age = async (key: string, days: number) => {
      const when = new Date(Date.now() - days * 86_400_000);
      await utimes(path.join(filesRoot, key), when, when);
    };
    // A turn spoken (and cached) for an interview, then everything in the cache made 40 days old.
    const { invite } = await interviewFixture(api, {
      questions: [{ id: 'weekend', text: 'What did you do last weekend?', type: 'open', followUp: { enabled: false } }],
    });
    const started = (await participantAs(t.http, invite.token).start().expect(201)).body;
    await asBytes(t.http.get(new URL(started.turn.audioUrl).pathname)).expect(200);
    const turnAudio = t.runtime.services.turnAudio!;
    const servedAgain = turnAudio.cacheKey({ text: started.turn.text, voice: turnAudio.synthesizer.defaultVoice, language: started.session.language });
    // Stored once the whole turn was made, just after the response ended.
    await waitFor(async () => (await cachedTurns(t)).includes(servedAgain));
    const earlier = await cachedTurns(t);
    for (const key of earlier) await age(key, 40);
    const fresh = `${TURN_AUDIO_PREFIX}bb/fresh.ogg`;
    const notTheCache = 'sessions/elsewhere/old.ogg';
    for (const key of [fresh, notTheCache]) await storage.put(key, Readable.from([Buffer.from('OggS')]));
    await age(fresh, 29);
    await age(notTheCache, 40);

    // Served again from the cache: marked used (in the background).
    await asBytes(t.http.get(new URL(started.turn.audioUrl).pathname)).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 200));

    await t.em().execute(`select graphile_worker.add_job('maintenance__prune_tts_cache', '{}'::json)`);
    await runJobsOnce(t, { tasks: ['maintenance__prune_tts_cache'] });
    expect(await cachedTurns(t)).toEqual([fresh, servedAgain].sort());
    await expect(storage.open(notTheCache)).resolves.toBeDefined();
    expect(await pruneTurnAudio(storage, new Date(Date.now() - 30 * 86_400_000))).toEqual({ checked: 2, deleted: 0 });
  });
});

describe.skipIf(skip !== null)('a voice session without server speech synthesis (TTS_PROVIDER=browser)', () => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await startTestApp({ ...PARTICIPANT_BUDGET, TTS_PROVIDER: 'browser' });
    api = apiAs(t.http, await t.createTenant());
  });
  afterAll(() => t?.close());

  it("has no AI track: the participant's track and the merged recording, the same answers on the same timeline", { timeout: 60_000 }, async () => {
    const { sessionId } = await voiceSession(t, api);
    await runCompletionChain(t, sessionId);
    const files = await filesOf(api, sessionId);
    expect(files.map((file) => file.kind).sort()).toEqual(['audio', 'audio', 'export', 'export', 'merged_audio', 'participant_audio']);
    const participant = files.find((file) => file.kind === 'participant_audio')!;
    expect(participant.durationSeconds).toBeCloseTo(await sessionLength(t, sessionId), 1);
    const samples = await pcm((await download(t, participant.url).expect(200)).body as Buffer);
    expect(rms(samples, 0.3, 1.5)).toBeLessThan(30);
    expect(rms(samples, 3.3, 7.7)).toBeGreaterThan(2000);
    expect(await cachedTurns(t)).toEqual([]);
  });
});
