import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phrasesFor } from '../../server/interviewer/phrases.js';
import { createLogger } from '../../server/logger.js';
import { detectPocketsphinx } from '../../server/speech/pocketsphinx-speech-recognizer.js';
import { download, wav } from '../helpers/audio.js';
import { type Api, apiAs, createCampaign, createInvite, createPublishedScript } from '../helpers/factories.js';
import { chatReply, type FakeOpenAi, startFakeOpenAi, transcriptionReply } from '../helpers/fake-openai.js';
import { FOUR_QUESTIONS, interviewFixture, participantAs, withoutFollowUps } from '../helpers/interviews.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * Audio answers end to end over HTTP: recordings stored as session files, speech-to-text through
 * a local OpenAI-compatible server (and offline pocketsphinx when installed), the browser's own
 * transcript, answers without any text, the upload limits, additional session files, and the
 * OpenAI-compatible interviewer with its fallback to the built-in one.
 */

const run = promisify(execFile);

/** The participant side makes many calls a minute here; its per-address budget is not under test. */
const PARTICIPANT_BUDGET = { RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' };
const STT_KEY = 'sk-test-stt-Qm4vX8nL2pR7';
const LLM_KEY = 'sk-test-llm-Zt5bW9kJ3hD6';

/** A real 1×1 PNG: a file with a clear type that is not audio. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

function logCapture() {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger('warn', stream) };
}

interface UtteranceRow {
  id: string;
  seq: number;
  speaker: string;
  kind: string;
  text: string | null;
  question_id: string | null;
  value: unknown;
  confidence: number | null;
  audio_file_id: string | null;
  decided_by: string | null;
}

async function utterances(app: TestApp, sessionId: string, speaker?: 'ai' | 'participant'): Promise<UtteranceRow[]> {
  return app.em().execute<UtteranceRow[]>(
    `select id, seq, speaker, kind, text, question_id, value, confidence, audio_file_id, decided_by from session_utterances
       where session_id = ? ${speaker ? 'and speaker = ?' : ''} order by seq`,
    speaker ? [sessionId, speaker] : [sessionId],
  );
}

async function sessionFileCount(app: TestApp, sessionId: string): Promise<number> {
  const [row] = await app.em().execute<{ count: string }[]>('select count(*) from session_files where session_id = ?', [sessionId]);
  return Number(row!.count);
}

/** Every file under a directory, recursively (an absent directory has none). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

function expectEnvelope(body: any, code: string): void {
  expect(body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Object), requestId: expect.stringMatching(/^req_/) } });
}

describe('audio answers with an OpenAI-compatible speech-to-text provider', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let api: Api;
  let stt: FakeOpenAi;
  let log: ReturnType<typeof logCapture>;

  beforeAll(async () => {
    stt = await startFakeOpenAi();
    log = logCapture();
    t = await startTestApp({ ...PARTICIPANT_BUDGET, STT_BASE_URL: stt.baseUrl, STT_API_KEY: STT_KEY, STT_MODEL: 'whisper-test' }, log.logger);
    tenant = await t.createTenant();
    api = apiAs(t.http, tenant);
  });
  afterAll(async () => {
    await t?.close();
    await stt?.close();
  });

  it('answers are sent to the provider at once: TRANSCRIPTION_CONCURRENCY bounds only a recognizer that runs on this machine', async () => {
    expect(t.runtime.services.config.transcriptionConcurrency).toBe(2);
    const participants = [];
    for (let i = 0; i < 3; i++) {
      const { invite } = await interviewFixture(api);
      const participant = participantAs(t.http, invite.token);
      await participant.start().expect(201);
      participants.push(participant);
    }
    // Each transcription is held until all three are at the provider (or 1.5 s have passed).
    let inFlight = 0;
    let peak = 0;
    const held: (() => void)[] = [];
    stt.respond = () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      const released = new Promise<void>((resolve) => {
        held.push(resolve);
        setTimeout(resolve, 1500);
      });
      if (inFlight === 3) for (const release of held) release();
      return released.then(() => {
        inFlight -= 1;
        return transcriptionReply('The setup guide was clear and quick to follow.');
      });
    };
    const replies = await Promise.all(participants.map((participant, i) => participant.answerAudio(wav(0.5, 300 + i * 50), `answer-${i}.wav`)));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
    expect(peak).toBe(3);
  });

  it('a whole interview answered by audio: each recording is sent to the provider, its text parsed, the audio kept as a session file', async () => {
    // No follow-up on the open answer: this test is about what the provider hears, one recording per question.
    const { invite } = await interviewFixture(api, { questions: withoutFollowUps(FOUR_QUESTIONS) });
    const participant = participantAs(t.http, invite.token);
    const started = await participant.start().expect(201);
    const sessionId: string = started.body.session.id;

    const spoken = [
      'The setup guide was clear and the team helped us import all our data in one day.',
      'Four out of five.',
      'Yes, definitely.',
      'Mostly the in-app chat.',
    ];
    const recordings = spoken.map((_, index) => wav(0.5 + index * 0.25, 300 + index * 100));
    const queue = [...spoken];
    stt.respond = () => transcriptionReply(queue.shift()!, -0.1);
    const seen = stt.requests.length;

    const replies = [];
    for (const [index, recording] of recordings.entries()) {
      replies.push((await participant.answerAudio(recording, `answer-${index}.wav`).expect(200)).body);
    }
    expect(replies.map((reply) => reply.turn && { questionId: reply.turn.questionId, kind: reply.turn.kind })).toEqual([
      { questionId: 'ease', kind: 'question' },
      { questionId: 'recommend', kind: 'question' },
      { questionId: 'channel', kind: 'question' },
      null,
    ]);
    expect(replies[3].session).toMatchObject({ status: 'completed', completionStatus: 'completed', questionsAnswered: 4 });
    expect(replies[3].closing).toEqual(expect.any(String));

    // What the provider received: one multipart request per answer, with the uploaded bytes.
    const received = stt.requests.slice(seen);
    expect(received).toHaveLength(4);
    for (const [index, request] of received.entries()) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/v1/audio/transcriptions');
      expect(request.headers.authorization).toBe(`Bearer ${STT_KEY}`);
      expect(request.form!.get('model')).toBe('whisper-test');
      expect(request.form!.get('response_format')).toBe('verbose_json');
      expect(request.form!.get('language')).toBe('en');
      const file = request.form!.get('file') as File;
      expect(file.name).toBe('answer.wav');
      expect(Buffer.from(await file.arrayBuffer()).equals(recordings[index]!)).toBe(true);
    }
    // Structured questions tell the provider what to expect.
    expect(received.map((request) => request.form!.get('prompt'))).toEqual([null, 'A rating from 1 to 5.', 'Yes or no.', 'Email, Phone call, In-app chat.']);

    const answers = await utterances(t, sessionId, 'participant');
    expect(answers.map((row) => ({ text: row.text, question: row.question_id, value: row.value, confidence: row.confidence }))).toEqual([
      { text: spoken[0], question: 'experience', value: null, confidence: 0.905 },
      { text: spoken[1], question: 'ease', value: 4, confidence: 0.905 },
      { text: spoken[2], question: 'recommend', value: true, confidence: 0.905 },
      { text: spoken[3], question: 'channel', value: 'In-app chat', confidence: 0.905 },
    ]);

    const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(session.answers).toEqual([
      // The parser's confidence: the words' (0.9) with the recogniser's 0.905 folded in.
      { questionId: 'ease', value: 4, utteranceId: answers[1]!.id, confidence: 0.87 },
      { questionId: 'recommend', value: true, utteranceId: answers[2]!.id, confidence: 0.87 },
      { questionId: 'channel', value: 'In-app chat', utteranceId: answers[3]!.id, confidence: 0.87 },
    ]);

    // One audio file per answer, each the utterance's, each downloadable as the bytes sent.
    const files = (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data;
    expect(files).toHaveLength(4);
    expect(answers.map((row) => row.audio_file_id)).toEqual(files.map((file: { id: string }) => file.id));
    for (const [index, file] of files.entries()) {
      expect(file).toMatchObject({ sessionId, kind: 'audio', contentType: 'audio/wav', size: recordings[index]!.length, name: `${file.id}.wav` });
      expect(file.durationSeconds).toBeCloseTo(0.5 + index * 0.25, 2);
      expect(new Date(file.urlExpiresAt).getTime()).toBeGreaterThan(Date.now() + 55 * 60 * 1000);
      const fetched = await download(t, file.url).expect(200);
      expect(fetched.headers['content-type']).toBe('audio/wav');
      expect((fetched.body as Buffer).equals(recordings[index]!)).toBe(true);
    }
  });

  it("audio with the browser's own transcript: the provider is not asked and the browser's text is the answer", async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId: string = (await participant.start().expect(201)).body.session.id;
    stt.respond = () => transcriptionReply('the provider should not have been asked');
    const seen = stt.requests.length;

    const reply = await participant
      .answerAudio(wav(0.6), 'answer.wav', { text: 'Setting up the workspace took me an afternoon.', confidence: '0.82' })
      .expect(200);

    expect(reply.body.turn).toMatchObject({ questionId: 'ease', kind: 'question' });
    expect(stt.requests.length).toBe(seen);
    const [answer] = await utterances(t, sessionId, 'participant');
    const files = (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data;
    expect(answer).toMatchObject({ text: 'Setting up the workspace took me an afternoon.', confidence: 0.82, audio_file_id: files[0].id });
  });

  it('audio without text and no recognizer: kept as audio with no text, and the interviewer moves on (a structured value is null, not re-asked)', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId: string = (await participant.start().expect(201)).body.session.id;
    const speech = t.runtime.services.speech;
    t.runtime.services.speech = { recognizer: null, description: 'none' };
    const seen = stt.requests.length;
    try {
      const afterOpen = await participant.answerAudio(wav(0.5), 'open.wav').expect(200);
      expect(afterOpen.body.turn).toMatchObject({ questionId: 'ease', kind: 'question' });
      const afterRating = await participant.answerAudio(wav(0.5), 'rating.wav').expect(200);
      expect(afterRating.body.turn).toMatchObject({ questionId: 'recommend', kind: 'question' });
    } finally {
      t.runtime.services.speech = speech;
    }

    expect(stt.requests.length).toBe(seen);
    const answers = await utterances(t, sessionId, 'participant');
    const files = (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data;
    expect(files.map((file: { kind: string }) => file.kind)).toEqual(['audio', 'audio']);
    expect(answers.map((row) => ({ text: row.text, value: row.value, confidence: row.confidence, audio: row.audio_file_id }))).toEqual([
      { text: null, value: null, confidence: null, audio: files[0].id },
      { text: null, value: null, confidence: null, audio: files[1].id },
    ]);
    const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(session.answers).toEqual([{ questionId: 'ease', value: null, utteranceId: answers[1]!.id, confidence: null }]);
    expect(session.questionsAnswered).toBe(2);
    // No re-ask and no follow-up: the AI asked exactly the next questions.
    expect((await utterances(t, sessionId, 'ai')).map((row) => row.kind)).toEqual(['question', 'question', 'question']);
  });

  it('a recognizer that hears the language and makes nothing of the audio: a required rating is asked again once, then recorded as null; an open answer moves on', async () => {
    const { invite } = await interviewFixture(api, { questions: withoutFollowUps(FOUR_QUESTIONS) });
    const participant = participantAs(t.http, invite.token);
    const sessionId: string = (await participant.start().expect(201)).body.session.id;
    stt.respond = () => transcriptionReply('');

    const afterOpen = await participant.answerAudio(wav(0.5), 'open.wav').expect(200);
    expect(afterOpen.body.turn).toMatchObject({ questionId: 'ease', kind: 'question' });
    const afterRating = await participant.answerAudio(wav(0.5), 'rating.wav').expect(200);
    expect(afterRating.body.turn).toMatchObject({ questionId: 'ease', kind: 're_ask', text: phrasesFor('en').reAsk(FOUR_QUESTIONS[1] as never) });
    const afterReAsk = await participant.answerAudio(wav(0.5), 'again.wav').expect(200);
    expect(afterReAsk.body.turn).toMatchObject({ questionId: 'recommend', kind: 'question' });

    const answers = await utterances(t, sessionId, 'participant');
    expect(answers.map((row) => [row.question_id, row.text, row.value])).toEqual([
      ['experience', null, null],
      ['ease', null, null],
      ['ease', null, null],
    ]);
    const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(session.answers).toEqual([{ questionId: 'ease', value: null, utteranceId: answers[2]!.id, confidence: null }]);
    expect((await utterances(t, sessionId, 'ai')).map((row) => row.kind)).toEqual(['question', 'question', 're_ask', 'question']);
  });

  it("a recognizer that does not hear the interview's language: its empty answer moves on, a required rating is not asked again", async () => {
    const { invite } = await interviewFixture(api, { questions: withoutFollowUps(FOUR_QUESTIONS) });
    const participant = participantAs(t.http, invite.token);
    const sessionId: string = (await participant.start().expect(201)).body.session.id;
    const speech = t.runtime.services.speech;
    // As pocketsphinx is for anything but English: asked, it answers null.
    t.runtime.services.speech = {
      recognizer: { name: 'english-only', runsLocally: false, hears: () => false, transcribe: () => Promise.resolve(null) },
      description: 'a recognizer of another language',
    };
    try {
      await participant.answerAudio(wav(0.5), 'open.wav').expect(200);
      const afterRating = await participant.answerAudio(wav(0.5), 'rating.wav').expect(200);
      expect(afterRating.body.turn).toMatchObject({ questionId: 'recommend', kind: 'question' });
    } finally {
      t.runtime.services.speech = speech;
    }
    expect((await utterances(t, sessionId, 'ai')).map((row) => row.kind)).toEqual(['question', 'question', 'question']);
  });

  it('a failing provider: the answer is kept as audio without text, a warning names the reason, the participant gets the next question', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId: string = (await participant.start().expect(201)).body.session.id;
    stt.respond = () => ({ status: 503, body: { error: { message: 'overloaded' } } });
    const logged = log.lines.length;

    const reply = await participant.answerAudio(wav(0.5), 'answer.wav').expect(200);

    expect(reply.body.turn).toMatchObject({ questionId: 'ease', kind: 'question' });
    const [answer] = await utterances(t, sessionId, 'participant');
    expect(answer).toMatchObject({ text: null, confidence: null, audio_file_id: expect.stringMatching(/^fil_/) });
    expect(log.lines.slice(logged)).toContainEqual(
      expect.objectContaining({ sessionId, recognizer: 'openai', reason: 'provider_error', msg: 'speech-to-text failed; the answer is kept as audio only' }),
    );
  });

  it.each([
    ['a PNG image', PNG, 'image.png'],
    ['random bytes', randomBytes(4096), 'answer.webm'],
  ])('%s sent as audio answers 415 UNSUPPORTED_MEDIA_TYPE and stores nothing', async (_label, bytes, filename) => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const started = (await participant.start().expect(201)).body;
    const seen = stt.requests.length;

    const reply = await participant.answerAudio(bytes, filename).expect(415);

    expectEnvelope(reply.body, 'UNSUPPORTED_MEDIA_TYPE');
    expect(reply.body.error.details.fields).toEqual([{ path: 'audio', message: expect.any(String) }]);
    expect(stt.requests.length).toBe(seen);
    expect(await sessionFileCount(t, started.session.id)).toBe(0);
    expect(await utterances(t, started.session.id, 'participant')).toEqual([]);
    expect(await filesUnder(path.join(t.dataDir, 'files', 'sessions', tenant.organizationId, started.session.id))).toEqual([]);
    expect(await filesUnder(path.join(t.dataDir, 'tmp', 'uploads'))).toEqual([]);
    // The question is still waiting for its answer.
    const resumed = await participant.start().expect(200);
    expect(resumed.body.turn.utteranceId).toBe(started.turn.utteranceId);
  });

  it('an answer that is neither JSON nor multipart answers 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const started = (await participant.start().expect(201)).body;

    const reply = await t.http
      .post('/api/interview/answer')
      .set('Authorization', `Bearer ${invite.token}`)
      .set('Content-Type', 'text/plain')
      .send('four out of five')
      .expect(415);

    expectEnvelope(reply.body, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await utterances(t, started.session.id, 'participant')).toEqual([]);
  });

  describe('POST /v1/sessions/{id}/files', () => {
    it('stores an additional file: 201 with the record, listed with the answers, downloaded as an attachment with the same bytes', async () => {
      const { invite } = await interviewFixture(api);
      const sessionId: string = (await participantAs(t.http, invite.token).start().expect(201)).body.session.id;
      const notes = Buffer.from('Participant shared their screen at 02:10.\nFollow up about the importer.\n');

      const created = await t.http
        .post(`/v1/sessions/${sessionId}/files`)
        .set('Authorization', tenant.authorization)
        .attach('file', notes, 'notes.txt')
        .expect(201);

      expect(created.body).toEqual({
        id: expect.stringMatching(/^fil_/),
        sessionId,
        kind: 'upload',
        name: 'notes.txt',
        contentType: 'application/octet-stream',
        size: notes.length,
        durationSeconds: null,
        url: expect.stringMatching(/\/files\/[\w-]+\.[\w-]+\.[\w-]+$/),
        urlExpiresAt: expect.any(String),
        createdAt: expect.any(String),
      });
      const listed = (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data;
      expect(listed.map((file: { id: string; kind: string }) => [file.id, file.kind])).toEqual([[created.body.id, 'upload']]);
      const fetched = await download(t, listed[0].url).expect(200);
      expect(fetched.headers['content-disposition']).toBe('attachment; filename="notes.txt"');
      expect(fetched.headers['x-content-type-options']).toBe('nosniff');
      expect((fetched.body as Buffer).equals(notes)).toBe(true);
    });

    it("answers 404 for another organization's session and stores nothing", async () => {
      const { invite } = await interviewFixture(api);
      const sessionId: string = (await participantAs(t.http, invite.token).start().expect(201)).body.session.id;
      const other = await t.createTenant();

      const reply = await t.http
        .post(`/v1/sessions/${sessionId}/files`)
        .set('Authorization', other.authorization)
        .attach('file', Buffer.from('x'), 'x.txt')
        .expect(404);

      expectEnvelope(reply.body, 'RESOURCE_NOT_FOUND');
      expect(await sessionFileCount(t, sessionId)).toBe(0);
    });

    it('answers 403 INSUFFICIENT_PERMISSIONS to a key without sessions:write', async () => {
      const { invite } = await interviewFixture(api);
      const sessionId: string = (await participantAs(t.http, invite.token).start().expect(201)).body.session.id;
      const reader = await t.createKey(tenant.organizationId, ['sessions:read']);

      const reply = await t.http
        .post(`/v1/sessions/${sessionId}/files`)
        .set('Authorization', reader.authorization)
        .attach('file', Buffer.from('x'), 'x.txt')
        .expect(403);

      expectEnvelope(reply.body, 'INSUFFICIENT_PERMISSIONS');
      expect(await sessionFileCount(t, sessionId)).toBe(0);
    });
  });
});

describe('the audio size limit (SESSION_AUDIO_MAX_BYTES=1kb)', () => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await startTestApp({ ...PARTICIPANT_BUDGET, SESSION_AUDIO_MAX_BYTES: '1kb' });
    api = apiAs(t.http, await t.createTenant());
    t.runtime.services.speech = { recognizer: null, description: 'none' };
  });
  afterAll(() => t?.close());

  it('a recording over the limit answers 413 PAYLOAD_TOO_LARGE, and neither the upload nor an answer is kept', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId: string = (await participant.start().expect(201)).body.session.id;

    const reply = await participant.answerAudio(wav(0.5), 'answer.wav').expect(413);

    expectEnvelope(reply.body, 'PAYLOAD_TOO_LARGE');
    expect(reply.body.error.details.limitBytes).toBe(1024);
    expect(await sessionFileCount(t, sessionId)).toBe(0);
    expect(await utterances(t, sessionId, 'participant')).toEqual([]);
    expect(await filesUnder(path.join(t.dataDir, 'tmp', 'uploads'))).toEqual([]);
    expect(await filesUnder(path.join(t.dataDir, 'files'))).toEqual([]);
  });
});

const pocketsphinx = await detectPocketsphinx();
const hasEspeak = await run('espeak-ng', ['--version']).then(
  () => true,
  () => false,
);
const pocketsphinxSkipReason = !pocketsphinx.available ? pocketsphinx.reason : !hasEspeak ? 'espeak-ng not found (apt-get install espeak-ng)' : null;
if (pocketsphinxSkipReason) console.log(`skipping the pocketsphinx interview tests: ${pocketsphinxSkipReason}`);

describe('audio answers with offline pocketsphinx (no STT_BASE_URL)', () => {
  let t: TestApp;
  let api: Api;
  let dir: string;

  /** A script of two rating questions, so one interview takes both recordings. */
  const RATINGS = [
    { id: 'ease', text: 'How easy was the setup?', type: 'rating', scale: { min: 1, max: 5 } },
    { id: 'support', text: 'How helpful was our support?', type: 'rating', scale: { min: 1, max: 5 } },
  ];

  beforeAll(async () => {
    if (pocketsphinxSkipReason) return;
    dir = await mkdtemp(path.join(tmpdir(), 'interview-audio-test-'));
    t = await startTestApp(PARTICIPANT_BUDGET);
    api = apiAs(t.http, await t.createTenant());
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function speak(name: string, text: string): Promise<string> {
    const file = path.join(dir, name);
    await run('espeak-ng', ['-v', 'en-us', '-s', '140', '-w', file, text]);
    return file;
  }

  it.skipIf(pocketsphinxSkipReason !== null)(
    'espeak-ng saying "four out of five" (WAV) and "two out of five" (WebM/Opus) give the ratings 4 and 2',
    async () => {
      expect(t.runtime.services.speech.recognizer?.name).toBe('pocketsphinx');
      const { invite } = await interviewFixture(api, { questions: RATINGS });
      const participant = participantAs(t.http, invite.token);
      const sessionId: string = (await participant.start().expect(201)).body.session.id;

      const four = await readFile(await speak('four.wav', 'four out of five'));
      const twoWav = await speak('two.wav', 'two out of five');
      const twoWebm = path.join(dir, 'two.webm');
      await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', twoWav, '-c:a', 'libopus', '-b:a', '32k', twoWebm]);
      const two = await readFile(twoWebm);

      const afterFirst = await participant.answerAudio(four, 'four.wav').expect(200);
      expect(afterFirst.body.turn).toMatchObject({ questionId: 'support', kind: 'question' });
      const afterSecond = await participant.answerAudio(two, 'two.webm').expect(200);
      expect(afterSecond.body.turn).toBeNull();

      const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
      expect(session.answers.map((answer: { questionId: string; value: unknown }) => [answer.questionId, answer.value])).toEqual([
        ['ease', 4],
        ['support', 2],
      ]);
      const answers = await utterances(t, sessionId, 'participant');
      expect(answers.map((row) => row.text)).toEqual([expect.stringContaining('four'), expect.stringContaining('two')]);
      for (const row of answers) expect(row.confidence).toBeGreaterThan(0);
      const files = (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data;
      expect(files.map((file: { contentType: string }) => file.contentType)).toEqual(['audio/wav', 'audio/webm']);
    },
    60_000,
  );
});

describe('the OpenAI-compatible interviewer (LLM_BASE_URL)', () => {
  const SYSTEM_PROMPT = 'You are Quinn, a calm researcher at Acme studying how teams get started with the product.';
  const QUESTIONS = [
    { id: 'experience', text: 'How was your first week with the product?', type: 'open' },
    { id: 'ease', text: 'How easy was the setup?', type: 'rating', scale: { min: 1, max: 5 } },
  ];
  let t: TestApp;
  let api: Api;
  let llm: FakeOpenAi;
  let log: ReturnType<typeof logCapture>;

  beforeAll(async () => {
    llm = await startFakeOpenAi();
    log = logCapture();
    t = await startTestApp(
      { ...PARTICIPANT_BUDGET, LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: LLM_KEY, LLM_MODEL: 'interviewer-test', LLM_TIMEOUT_MS: '1000' },
      log.logger,
    );
    api = apiAs(t.http, await t.createTenant());
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  async function startInterview() {
    const script = await createPublishedScript(api, { systemPrompt: SYSTEM_PROMPT, questions: QUESTIONS });
    const campaign = await createCampaign(api, { scriptId: script.id });
    const invite = await createInvite(api, campaign.id, { email: `llm-${randomBytes(4).toString('hex')}@example.com`, sendEmail: false });
    const participant = participantAs(t.http, invite.token);
    const started = (await participant.start().expect(201)).body;
    return { participant, sessionId: started.session.id as string };
  }

  async function aiTurn(sessionId: string, utteranceId: string): Promise<UtteranceRow> {
    const row = (await utterances(t, sessionId, 'ai')).find((utterance) => utterance.id === utteranceId);
    if (!row) throw new Error(`no AI utterance ${utteranceId}`);
    return row;
  }

  it("the model's follow-up is the next turn, recorded as decided by the llm; the model was given the systemPrompt, the plan and the answer", async () => {
    const { participant, sessionId } = await startInterview();
    llm.respond = () => chatReply({ action: 'follow_up', text: 'What exactly broke?', reason: 'problem', pickedUp: 'broke twice' });
    const seen = llm.requests.length;

    const reply = await participant.answer('The importer broke twice while I was setting things up.').expect(200);

    expect(reply.body.turn).toMatchObject({ kind: 'follow_up', text: 'What exactly broke?', questionId: 'experience' });
    expect(await aiTurn(sessionId, reply.body.turn.utteranceId)).toMatchObject({ kind: 'follow_up', decided_by: 'llm' });
    const [stored] = await t.em().execute<{ probe: unknown }[]>(`select probe from session_utterances where id = ?`, [reply.body.turn.utteranceId]);
    expect(stored!.probe).toEqual({ reason: 'problem', pickedUp: 'broke twice', source: 'llm', probeNumber: 1 });
    const [request, ...more] = llm.requests.slice(seen);
    expect(more).toEqual([]);
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${LLM_KEY}`);
    expect(request!.json.model).toBe('interviewer-test');
    const [system, user] = request!.json.messages as { role: string; content: string }[];
    expect(system!.role).toBe('system');
    expect(system!.content.startsWith(SYSTEM_PROMPT)).toBe(true);
    expect(system!.content).toContain('How easy was the setup?');
    expect(user!.role).toBe('user');
    expect(user!.content).toContain('The importer broke twice while I was setting things up.');
    expect(user!.content).toContain('How was your first week with the product?');
  });

  it('a model answering 500: the participant still gets 200 and the built-in follow-up, recorded as decided by builtin', async () => {
    const { participant, sessionId } = await startInterview();
    llm.respond = () => ({ status: 500, body: { error: { message: 'internal error', type: 'server_error' } } });
    const logged = log.lines.length;

    const reply = await participant.answer('ok').expect(200);

    expect(reply.body.turn).toMatchObject({ kind: 'follow_up', text: phrasesFor('en').followUp('non_committal', 0), questionId: 'experience' });
    expect(await aiTurn(sessionId, reply.body.turn.utteranceId)).toMatchObject({ decided_by: 'builtin' });
    const warnings = log.lines.slice(logged);
    expect(warnings).toContainEqual(expect.objectContaining({ provider: 'llm', reason: 'http_status', status: 500 }));
    expect(JSON.stringify(warnings)).not.toContain(LLM_KEY);
  });

  it('a model that does not answer within LLM_TIMEOUT_MS: the built-in interviewer moves on to the next question, recorded as builtin', async () => {
    const { participant, sessionId } = await startInterview();
    llm.respond = () => ({ hang: true });
    const logged = log.lines.length;
    const began = Date.now();

    const reply = await participant.answer('The first week went smoothly, the onboarding checklist covered everything we needed.').expect(200);

    expect(Date.now() - began).toBeLessThan(10_000);
    expect(reply.body.turn).toMatchObject({ kind: 'question', questionId: 'ease', text: 'How easy was the setup?' });
    expect(await aiTurn(sessionId, reply.body.turn.utteranceId)).toMatchObject({ kind: 'question', decided_by: 'builtin' });
    expect(log.lines.slice(logged)).toContainEqual(expect.objectContaining({ provider: 'llm', reason: 'timeout', timeoutMs: 1000 }));
  });
});
