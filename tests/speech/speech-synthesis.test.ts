import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { INTERVIEW_LANGUAGES } from '../../shared/languages.js';
import { findExecutable } from '../../server/lib/child-process.js';
import { createSpeechSynthesizer } from '../../server/speech/create-speech-synthesizer.js';
import { EspeakSpeechSynthesizer, espeakVoiceFor } from '../../server/speech/espeak-speech-synthesizer.js';
import { OpenAiSpeechSynthesizer } from '../../server/speech/openai-speech-synthesizer.js';
import { SpeechSynthesisError } from '../../server/speech/speech-synthesizer.js';
import { wav } from '../helpers/audio.js';
import { apiAs, createPublishedScript, type Api } from '../helpers/factories.js';
import { interviewFixture, ONE_QUESTION, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const API_KEY = 'sk-test-Tts7vN8xK2mP7wL5rT9yB4cD';

interface SpeechRequest {
  url: string;
  authorization: string | undefined;
  json: { model?: string; input?: string; voice?: string; response_format?: string };
}

type Handler = (request: SpeechRequest, res: ServerResponse) => void;

/** A local server speaking OpenAI's `POST /v1/audio/speech`, answering as each test says. */
let server: Server;
let baseUrl: string;
let handler: Handler;
const received: SpeechRequest[] = [];

const OGG_PARTS = [Buffer.from('OggS first words '), Buffer.from('and the rest of the sentence')];

/** Answers audio in two parts, `gapMs` apart: a provider that speaks as it goes. */
const speaking =
  (gapMs = 0): Handler =>
  (_request, res) => {
    res.writeHead(200, { 'content-type': 'audio/ogg' });
    res.write(OGG_PARTS[0]);
    setTimeout(() => res.end(OGG_PARTS[1]), gapMs);
  };

async function receive(req: IncomingMessage): Promise<SpeechRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return { url: req.url ?? '', authorization: req.headers.authorization, json: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function provider(overrides: Partial<ConstructorParameters<typeof OpenAiSpeechSynthesizer>[0]> = {}) {
  return new OpenAiSpeechSynthesizer({ baseUrl, apiKey: API_KEY, model: 'tts-test', format: 'opus', timeoutMs: 2000, ...overrides });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    receive(req).then(
      (request) => {
        received.push(request);
        handler(request, res);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received.length = 0;
  handler = speaking();
});

describe('OpenAI-compatible text-to-speech against a local server', () => {
  it('posts model, input, voice and format with the key, and hands on the audio as it arrives', async () => {
    handler = speaking(400);
    const started = Date.now();
    const stream = await provider().synthesize({ text: 'How was your week?', voice: 'nova', language: 'en' });
    // The first part is readable while the server still holds the rest back.
    const first = await new Promise<Buffer>((resolve) => stream.once('data', resolve));
    expect(first.toString()).toBe(OGG_PARTS[0]!.toString());
    expect(Date.now() - started).toBeLessThan(350);
    const rest = await readAll(stream);
    expect(Buffer.concat([first, rest])).toEqual(Buffer.concat(OGG_PARTS));
    expect(received).toEqual([
      {
        url: '/v1/audio/speech',
        authorization: `Bearer ${API_KEY}`,
        json: { model: 'tts-test', input: 'How was your week?', voice: 'nova', response_format: 'opus' },
      },
    ]);
  });

  it('MP3 is audio/mpeg; TTS_VOICES replaces the voice list and its first is the default', () => {
    const mp3 = provider({ format: 'mp3', voices: ['af_bella', 'am_adam'] });
    expect(mp3.contentType).toBe('audio/mpeg');
    expect(mp3.voices).toEqual(['af_bella', 'am_adam']);
    expect(mp3.defaultVoice).toBe('af_bella');
    expect(provider().voices).toContain('alloy');
  });

  it('a slow server: no answer within the timeout is a timeout, and so is a stream that stalls part-way', async () => {
    handler = () => undefined; // never answers
    const error = await provider({ timeoutMs: 300 })
      .synthesize({ text: 'Hello', voice: 'alloy', language: 'en' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SpeechSynthesisError);
    expect((error as SpeechSynthesisError).reason).toBe('timeout');

    handler = (_request, res) => {
      res.writeHead(200, { 'content-type': 'audio/ogg' });
      res.write(OGG_PARTS[0]); // and then nothing
    };
    const stream = await provider({ timeoutMs: 300 }).synthesize({ text: 'Hello', voice: 'alloy', language: 'en' });
    const stalled = await readAll(stream).catch((caught: unknown) => caught);
    expect(stalled).toBeInstanceOf(SpeechSynthesisError);
    expect((stalled as SpeechSynthesisError).reason).toBe('timeout');

    // Slow but steady is fine: each piece restarts the clock.
    handler = speaking(200);
    expect(await readAll(await provider({ timeoutMs: 300 }).synthesize({ text: 'Hello', voice: 'alloy', language: 'en' }))).toEqual(Buffer.concat(OGG_PARTS));
  });

  it('a failing server: 5xx, 401, 429 and 400 are told apart, without the key in the message', async () => {
    const cases: [number, string][] = [
      [500, 'provider_error'],
      [401, 'unauthorized'],
      [429, 'rate_limited'],
      [400, 'rejected'],
    ];
    for (const [status, reason] of cases) {
      handler = (_request, res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `failed for key ${API_KEY}` } }));
      };
      const error = (await provider()
        .synthesize({ text: 'Hello', voice: 'alloy', language: 'en' })
        .catch((caught: unknown) => caught)) as SpeechSynthesisError;
      expect(error).toBeInstanceOf(SpeechSynthesisError);
      expect([error.reason, error.status]).toEqual([reason, status]);
      expect(error.message).toContain(`answered ${status}`);
      expect(error.message).not.toContain(API_KEY);
    }

    const unreachable = new OpenAiSpeechSynthesizer({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: API_KEY, model: 'm', format: 'opus', timeoutMs: 2000 });
    const error = (await unreachable.synthesize({ text: 'Hello', voice: 'alloy', language: 'en' }).catch((caught: unknown) => caught)) as SpeechSynthesisError;
    expect(error.reason).toBe('network');
  });

  it('is chosen at start when TTS_BASE_URL is set, and named without the key', async () => {
    const choice = await createSpeechSynthesizer({
      provider: 'auto',
      tts: { baseUrl: `http://user:${API_KEY}@127.0.0.1:9/v1`, apiKey: API_KEY, model: 'tts-test', format: 'opus', timeoutMs: 1000 },
      ffmpeg: null,
      timeoutMs: 1000,
    });
    expect(choice.synthesizer?.name).toBe('openai');
    expect(choice.description).toMatch(/^text-to-speech: 127\.0\.0\.1:9 \(tts-test, opus/);
    expect(choice.description).not.toContain(API_KEY);

    const none = await createSpeechSynthesizer({ provider: 'auto', ffmpeg: null, timeoutMs: 1000, espeakPath: null });
    expect(none).toEqual({ synthesizer: null, description: expect.stringContaining("the browser's own") });
    const browser = await createSpeechSynthesizer({ provider: 'browser', ffmpeg: '/usr/bin/ffmpeg', timeoutMs: 1000 });
    expect(browser.synthesizer).toBeNull();
    await expect(createSpeechSynthesizer({ provider: 'espeak-ng', ffmpeg: null, timeoutMs: 1000, espeakPath: null })).rejects.toThrow(
      /espeak-ng and ffmpeg is not installed/,
    );
  });
});

const espeak = await findExecutable('espeak-ng');
const ffmpeg = await findExecutable('ffmpeg');
const ffprobe = await findExecutable('ffprobe');
const offlineSkip = !espeak
  ? 'espeak-ng not found (apt-get install espeak-ng)'
  : !ffmpeg || !ffprobe
    ? 'ffmpeg/ffprobe not found (apt-get install ffmpeg)'
    : null;
if (offlineSkip) console.log(`skipping espeak-ng text-to-speech tests: ${offlineSkip}`);

const SENTENCES: Record<(typeof INTERVIEW_LANGUAGES)[number], string> = {
  en: 'What should we improve first?',
  nl: 'Wat moeten we als eerste verbeteren?',
  de: 'Was sollten wir zuerst verbessern?',
  fr: "Qu'est-ce que nous devrions améliorer en premier ?",
  es: '¿Qué deberíamos mejorar primero?',
};

describe.skipIf(offlineSkip !== null)('espeak-ng text-to-speech (offline)', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'tts-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  const synthesizer = () => new EspeakSpeechSynthesizer({ espeak: espeak!, ffmpeg: ffmpeg!, timeoutMs: 20_000 });

  it.each([...INTERVIEW_LANGUAGES])(
    'speaks %s as Ogg Opus (ffprobe: codec opus, duration > 0)',
    async (language) => {
      const audio = await readAll(await synthesizer().synthesize({ text: SENTENCES[language], voice: 'nova', language }));
      const file = path.join(work, `${language}.ogg`);
      await writeFile(file, audio);
      const { stdout } = await promisify(execFile)(ffprobe!, [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_name:format=format_name,duration',
        '-of',
        'json',
        file,
      ]);
      const probe = JSON.parse(stdout) as { streams: { codec_name: string }[]; format: { format_name: string; duration: string } };
      expect(probe.streams.map((stream) => stream.codec_name)).toEqual(['opus']);
      expect(probe.format.format_name).toBe('ogg');
      expect(Number(probe.format.duration)).toBeGreaterThan(0.5);
    },
    30_000,
  );

  it('regions take their own espeak voice where it has one; other tags their language', () => {
    expect(['en', 'en-GB', 'nl-BE', 'de-AT', 'fr-BE', 'fr-CA', 'es', 'es-MX', 'ja'].map(espeakVoiceFor)).toEqual([
      'en-us',
      'en-gb',
      'nl',
      'de',
      'fr-be',
      'fr-fr',
      'es',
      'es-419',
      null,
    ]);
  });

  it('text that looks like an option is spoken, not taken as one; an unknown voice is refused', async () => {
    const audio = await readAll(await synthesizer().synthesize({ text: '--help me -v', voice: 'alloy', language: 'en' }));
    expect(audio.subarray(0, 4).toString()).toBe('OggS');
    const error = await synthesizer()
      .synthesize({ text: 'Hello', voice: 'Samantha', language: 'en' })
      .catch((caught: unknown) => caught);
    expect((error as SpeechSynthesisError).reason).toBe('rejected');
  }, 30_000);

  it("through the app: a German turn's audioUrl streams Ogg Opus from espeak-ng, then from the cache", async () => {
    const app = await startTestApp({ ...PARTICIPANT_BUDGET, TTS_PROVIDER: 'espeak-ng' });
    try {
      const api = apiAs(app.http, await app.createTenant());
      const { invite } = await interviewFixture(api, {
        settings: { language: 'de', voice: 'onyx' },
        questions: [{ id: 'q', text: SENTENCES.de, type: 'open' }],
      });
      const started = (await participantAs(app.http, invite.token).start().expect(201)).body;
      const get = () =>
        app.http
          .get(new URL(started.turn.audioUrl).pathname)
          .buffer(true)
          .parse((res, done) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => done(null, Buffer.concat(chunks)));
          })
          .expect(200)
          .expect('content-type', 'audio/ogg');
      const made = await get();
      const file = path.join(work, 'turn.ogg');
      await writeFile(file, made.body as Buffer);
      const { stdout } = await promisify(execFile)(ffprobe!, ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'json', file]);
      const probe = JSON.parse(stdout) as { streams: { codec_name: string }[]; format: { duration: string } };
      expect(probe.streams[0]!.codec_name).toBe('opus');
      expect(Number(probe.format.duration)).toBeGreaterThan(0.5);
      // The cache holds exactly what was streamed.
      expect((await get()).body).toEqual(made.body);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('is chosen at start when installed and no TTS_BASE_URL is set', async () => {
    const choice = await createSpeechSynthesizer({ provider: 'auto', ffmpeg, timeoutMs: 1000 });
    expect(choice.synthesizer?.name).toBe('espeak-ng');
    expect(choice.description).toContain('offline espeak-ng');
  });
});

describe('spoken turns in the participant API (OpenAI-compatible provider on a local server)', () => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await startTestApp({ ...PARTICIPANT_BUDGET, TTS_BASE_URL: baseUrl, TTS_API_KEY: API_KEY, TTS_MODEL: 'tts-test', TTS_TIMEOUT_MS: '2000' });
    api = apiAs(t.http, await t.createTenant());
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const audioPath = (url: string) => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/files\/[\w-]+\.[\w-]+\.[\w-]+$/);
    return new URL(url).pathname;
  };
  const fetchAudio = (url: string) =>
    t.http
      .get(audioPath(url))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  it('an unknown voice is refused where it is set: settings.voice on create and update, voice on start', async () => {
    const script = await createPublishedScript(api);
    const created = await api.post('/v1/campaigns', { name: 'Voices', scriptId: script.id, settings: { voice: 'Samantha' } }).expect(422);
    expect(created.body.error.code).toBe('VALIDATION_ERROR');
    expect(created.body.error.details.fields).toEqual([{ path: 'settings.voice', message: expect.stringContaining('available: alloy') }]);

    const { campaign, invite } = await interviewFixture(api, { settings: { voice: 'onyx' } });
    const updated = await api.patch(`/v1/campaigns/${campaign.id}`, { settings: { voice: 'robot' } }).expect(422);
    expect(updated.body.error.details.fields).toEqual([{ path: 'settings.voice', message: expect.stringContaining('"robot" is not a voice') }]);
    expect((await api.get(`/v1/campaigns/${campaign.id}`).expect(200)).body.settings.voice).toBe('onyx');
    await api.patch(`/v1/campaigns/${campaign.id}`, { settings: { voice: 'nova' } }).expect(200);

    const participant = participantAs(t.http, invite.token);
    const refused = await participant.start({ voice: 'Daniel' }).expect(422);
    expect(refused.body.error.details.fields).toEqual([{ path: 'voice', message: expect.stringContaining('"Daniel" is not a voice') }]);
  });

  it('every AI turn of start and answer carries a signed audioUrl that streams the audio in the session voice, cached by text, voice and language', async () => {
    const { invite } = await interviewFixture(api, {
      settings: { voice: 'onyx', language: 'nl' },
      questions: [...ONE_QUESTION, { id: 'second', text: 'En verder?', type: 'open', followUp: { enabled: false } }],
    });
    const participant = participantAs(t.http, invite.token);
    const started = (await participant.start({ voice: 'shimmer' }).expect(201)).body;
    expect(started.turn.audioUrl).toEqual(expect.any(String));

    handler = speaking(50);
    const first = await fetchAudio(started.turn.audioUrl).expect(200);
    expect(first.headers['content-type']).toBe('audio/ogg');
    expect(first.headers['content-length']).toBeUndefined();
    expect(first.headers['transfer-encoding']).toBe('chunked');
    expect(first.body).toEqual(Buffer.concat(OGG_PARTS));
    // The SDK's voice wins over the campaign's.
    expect(received.map((request) => request.json)).toEqual([{ model: 'tts-test', input: started.turn.text, voice: 'shimmer', response_format: 'opus' }]);

    // Again: from the cache, the provider is not asked.
    expect((await fetchAudio(started.turn.audioUrl).expect(200)).body).toEqual(Buffer.concat(OGG_PARTS));
    expect(received).toHaveLength(1);

    const answered = (await participant.answer('Faster support, please.').expect(200)).body;
    expect(answered.turn.questionId).toBe('second');
    expect(answered.turn.audioUrl).toEqual(expect.any(String));
    expect(answered.turn.audioUrl).not.toBe(started.turn.audioUrl);

    // Several players at once while it is made: one synthesis, all get the whole audio.
    received.length = 0;
    handler = speaking(300);
    const all = await Promise.all([fetchAudio(answered.turn.audioUrl), fetchAudio(answered.turn.audioUrl), fetchAudio(answered.turn.audioUrl)]);
    for (const response of all) expect([response.status, response.body]).toEqual([200, Buffer.concat(OGG_PARTS)]);
    expect(received).toHaveLength(1);

    // A link is bound to its utterance: another subject under the same purpose opens nothing.
    const signer = t.runtime.services.signer;
    const forged = await signer.signFileLink({ fileId: `${answered.session.id}/utt_doesnotexist`, purpose: 'turn_audio' }, 60);
    expect((await t.http.get(new URL(forged.url).pathname).expect(404)).body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it("a spoken answer's next turn is synthesized as soon as it is decided, and its link streams that synthesis; a typed answer's only when fetched", async () => {
    const questions = ['Spoken ahead, first?', 'Spoken ahead, second?', 'Spoken ahead, third?'].map((text, i) => ({
      id: `q${i}`,
      text,
      type: 'open',
      followUp: { enabled: false },
    }));
    const { invite } = await interviewFixture(api, { settings: { voice: 'nova' }, questions });
    const participant = participantAs(t.http, invite.token);
    const started = (await participant.start().expect(201)).body;

    handler = speaking(200);
    received.length = 0;
    const spoken = (
      await participant.answerAudio(wav(0.5), 'answer.wav', { text: 'Faster support, please.', utteranceId: started.turn.utteranceId }).expect(200)
    ).body;
    expect(spoken.turn.questionId).toBe('q1');
    // Asked without the link being fetched, in the voice and language the link speaks.
    await vi.waitFor(() =>
      expect(received.map((request) => request.json)).toEqual([{ model: 'tts-test', input: 'Spoken ahead, second?', voice: 'nova', response_format: 'opus' }]),
    );
    const audio = await fetchAudio(spoken.turn.audioUrl).expect(200);
    expect(audio.body).toEqual(Buffer.concat(OGG_PARTS));
    expect(received).toHaveLength(1);

    received.length = 0;
    const typed = (await participant.answer('Cheaper plans.').expect(200)).body;
    expect(typed.turn.questionId).toBe('q2');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(received).toHaveLength(0);
    expect((await fetchAudio(typed.turn.audioUrl).expect(200)).body).toEqual(Buffer.concat(OGG_PARTS));
    expect(received.map((request) => request.json.input)).toEqual(['Spoken ahead, third?']);
  });

  it('a synthesis started ahead that fails is tried again when the link is fetched', async () => {
    const questions = ['Failing ahead, first?', 'Failing ahead, second?'].map((text, i) => ({ id: `q${i}`, text, type: 'open', followUp: { enabled: false } }));
    const { invite } = await interviewFixture(api, { questions });
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    handler = (_request, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"overloaded"}}');
    };
    const spoken = (await participant.answerAudio(wav(0.5), 'answer.wav', { text: 'Faster support, please.' }).expect(200)).body;
    await vi.waitFor(() => expect(received).toHaveLength(1));
    // The failure reaches the service a moment after the provider got the request.
    await new Promise((resolve) => setTimeout(resolve, 100));
    handler = speaking();
    expect((await fetchAudio(spoken.turn.audioUrl).expect(200)).body).toEqual(Buffer.concat(OGG_PARTS));
    expect(received.map((request) => request.json.input)).toEqual(['Failing ahead, second?', 'Failing ahead, second?']);
  });

  it('a provider that fails before any audio: 503 with Retry-After, and nothing cached', async () => {
    const { invite } = await interviewFixture(api, {
      questions: [{ id: 'q', text: 'Something nobody asked before?', type: 'open', followUp: { enabled: false } }],
    });
    const started = (await participantAs(t.http, invite.token).start().expect(201)).body;
    handler = (_request, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"overloaded"}}');
    };
    const failed = await t.http.get(audioPath(started.turn.audioUrl)).expect(503);
    expect(failed.headers['retry-after']).toBe('5');
    expect(failed.body.error.code).toBe('SERVICE_UNAVAILABLE');
    handler = speaking();
    expect((await fetchAudio(started.turn.audioUrl).expect(200)).body).toEqual(Buffer.concat(OGG_PARTS));
    // The session named no voice: the provider's default.
    expect(received.at(-1)!.json.voice).toBe('alloy');
  });
});

describe('without server speech synthesis (TTS_PROVIDER=browser)', () => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await startTestApp({ ...PARTICIPANT_BUDGET, TTS_PROVIDER: 'browser' });
    api = apiAs(t.http, await t.createTenant());
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it("turns carry no audioUrl, and any voice name is the browser's preference", async () => {
    const { invite } = await interviewFixture(api, { settings: { voice: 'Samantha' } });
    const started = (await participantAs(t.http, invite.token).start({ voice: 'Daniel' }).expect(201)).body;
    expect(started.turn).not.toHaveProperty('audioUrl');
  });
});
