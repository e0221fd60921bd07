import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSpeechRecognizer } from '../../server/speech/create-speech-recognizer.js';
import { OpenAiSpeechRecognizer, type OpenAiSpeechRecognizerOptions } from '../../server/speech/openai-speech-recognizer.js';
import { SpeechRecognitionError } from '../../server/speech/speech-recognizer.js';

const API_KEY = 'sk-test-Hq3vN8xK2mP7wL5rT9yB4cD6';

interface ReceivedRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: FormData;
}

type Handler = (request: ReceivedRequest, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
const received: ReceivedRequest[] = [];
let workDir: string;
let audioFile: string;
const audioBytes = randomBytes(4096);

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Reads the multipart body with the platform's own parser, as a real server would. */
async function receive(req: IncomingMessage): Promise<ReceivedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const contentType = req.headers['content-type'];
  const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': contentType ?? '' } }).formData();
  return { method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, contentType, form };
}

function recognizer(overrides: Partial<OpenAiSpeechRecognizerOptions> = {}): OpenAiSpeechRecognizer {
  return new OpenAiSpeechRecognizer({ baseUrl: `${baseUrl}/v1/`, apiKey: API_KEY, model: 'whisper-1', timeoutMs: 5000, ...overrides });
}

async function failure(promise: Promise<unknown>): Promise<SpeechRecognitionError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SpeechRecognitionError);
  return error as SpeechRecognitionError;
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'speech-openai-test-'));
  audioFile = path.join(workDir, 'answer.webm');
  await writeFile(audioFile, audioBytes);
  server = createServer((req, res) => {
    receive(req).then(
      (request) => {
        received.push(request);
        handler(request, res);
      },
      () => json(res, 400, { error: { message: 'unparseable multipart' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  received.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(workDir, { recursive: true, force: true });
});

describe('OpenAI-compatible speech-to-text', () => {
  it('posts the audio as multipart to {baseUrl}/audio/transcriptions with the key, model and two-letter language', async () => {
    handler = (_request, res) => json(res, 200, { text: 'Four out of five.', segments: [{ start: 0, end: 2, text: ' Four out of five.', avg_logprob: -0.1 }] });

    await recognizer().transcribe({ file: audioFile, contentType: 'audio/webm;codecs=opus', language: 'en-US' });

    expect(received).toHaveLength(1);
    const request = received[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/audio/transcriptions');
    expect(request.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.form.get('model')).toBe('whisper-1');
    expect(request.form.get('language')).toBe('en');
    expect(request.form.get('response_format')).toBe('verbose_json');
    const file = request.form.get('file');
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe('answer.webm');
    expect((file as File).type).toBe('audio/webm');
    expect(Buffer.from(await (file as File).arrayBuffer()).equals(audioBytes)).toBe(true);
    expect(request.form.has('prompt')).toBe(false);
  });

  it('names the upload by its format, since the provider goes by the file name', async () => {
    handler = (_request, res) => json(res, 200, { text: 'yes' });
    const cases: [string, string][] = [
      ['audio/ogg;codecs=opus', 'answer.ogg'],
      ['audio/wav', 'answer.wav'],
      ['audio/mpeg', 'answer.mp3'],
      ['audio/mp4', 'answer.m4a'],
    ];
    for (const [contentType] of cases) await recognizer().transcribe({ file: audioFile, contentType, language: 'en' });
    expect(received.map((request) => (request.form.get('file') as File).name)).toEqual(cases.map(([, name]) => name));
  });

  it('turns verbose_json segments into text with a confidence from avg_logprob, leaving out segments Whisper marks as silence', async () => {
    handler = (_request, res) =>
      json(res, 200, {
        task: 'transcribe',
        language: 'english',
        duration: 5,
        text: ' I would say four. Thank you for watching!',
        segments: [
          { id: 0, start: 0, end: 1, text: ' I would say', avg_logprob: -0.2, no_speech_prob: 0.01 },
          { id: 1, start: 1, end: 3, text: ' four.', avg_logprob: -0.5, no_speech_prob: 0.02 },
          { id: 2, start: 3, end: 5, text: ' Thank you for watching!', avg_logprob: -1.4, no_speech_prob: 0.9 },
        ],
      });

    const result = await recognizer().transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' });

    expect(result?.text).toBe('I would say four.');
    // exp((-0.2·1 + -0.5·2) / 3) = exp(-0.4)
    expect(result?.confidence).toBeCloseTo(Math.exp(-0.4), 3);
  });

  it('asks gpt-4o transcription models for json with token logprobs and averages them', async () => {
    handler = (_request, res) =>
      json(res, 200, {
        text: 'Yes, definitely.',
        logprobs: [
          { token: 'Yes', logprob: -0.1, bytes: [89, 101, 115] },
          { token: ',', logprob: -0.3, bytes: [44] },
          { token: ' definitely', logprob: -0.2, bytes: [] },
        ],
      });

    const result = await recognizer({ model: 'gpt-4o-mini-transcribe' }).transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' });

    const form = received[0]!.form;
    expect(form.get('response_format')).toBe('json');
    expect(form.getAll('include[]')).toEqual(['logprobs']);
    expect(result).toEqual({ text: 'Yes, definitely.', confidence: Number(Math.exp(-0.2).toFixed(3)) });
  });

  it('reports a null confidence when the provider gives no probabilities', async () => {
    handler = (_request, res) => json(res, 200, { text: '  Live chat  ' });
    const result = await recognizer({ responseFormat: 'json' }).transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' });
    expect(result).toEqual({ text: 'Live chat', confidence: null });
  });

  it('answers null when nothing was recognised', async () => {
    handler = (_request, res) => json(res, 200, { text: '   ', segments: [] });
    expect(await recognizer().transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' })).toBeNull();
  });

  it('sends the options of a multiple-choice question as the prompt', async () => {
    handler = (_request, res) => json(res, 200, { text: 'Zendesk' });
    await recognizer().transcribe({
      file: audioFile,
      contentType: 'audio/webm',
      language: 'en',
      hints: { questionType: 'multiple_choice', options: ['Zendesk', 'Intercom', 'Email'] },
    });
    expect(received[0]!.form.get('prompt')).toBe('Zendesk, Intercom, Email.');
  });

  it('omits a language that is not a two-letter code', async () => {
    handler = (_request, res) => json(res, 200, { text: 'ok' });
    await recognizer().transcribe({ file: audioFile, contentType: 'audio/webm', language: 'yue-Hant' });
    expect(received[0]!.form.has('language')).toBe(false);
  });

  it('gives up after timeoutMs with a typed timeout error', async () => {
    handler = () => {
      // never answers
    };
    const started = Date.now();
    const error = await failure(recognizer({ timeoutMs: 300 }).transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' }));
    expect(error.reason).toBe('timeout');
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("stops when the caller's signal aborts", async () => {
    handler = () => {
      // never answers
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(recognizer().transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en', signal: controller.signal }));
    expect(error.reason).toBe('aborted');
  });

  it('turns a 401 into an unauthorized error that does not repeat the key', async () => {
    handler = (_request, res) =>
      json(res, 401, { error: { message: `Incorrect API key provided: ${API_KEY}. You can find your API key at …`, type: 'invalid_request_error' } });

    const error = await failure(recognizer().transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' }));

    expect(error.reason).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('401');
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.message).not.toContain(API_KEY);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });

  it('does not leak a masked key the provider echoes either', async () => {
    handler = (_request, res) => json(res, 401, { error: { message: 'Incorrect API key provided: sk-test-Hq3v************cD6.' } });
    const error = await failure(recognizer().transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' }));
    expect(error.message).not.toContain('sk-test-Hq3v');
  });

  it('turns a 500 into a retryable provider error without the key', async () => {
    handler = (_request, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`upstream exploded while using ${API_KEY}`);
    };

    const error = await failure(recognizer().transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' }));

    expect(error.reason).toBe('provider_error');
    expect(error.status).toBe(500);
    expect(error.retryable).toBe(true);
    expect(error.message).not.toContain(API_KEY);
  });

  it('turns a 429 into a retryable rate_limited error and a 400 into a rejected one', async () => {
    handler = (_request, res) => json(res, 429, { error: { message: 'Rate limit reached' } });
    expect((await failure(recognizer().transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' }))).reason).toBe('rate_limited');
    handler = (_request, res) => json(res, 400, { error: { message: 'Invalid file format.' } });
    const rejected = await failure(recognizer().transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' }));
    expect(rejected.reason).toBe('rejected');
    expect(rejected.message).toContain('Invalid file format.');
  });

  it('turns malformed JSON and a body without text into bad_response', async () => {
    handler = (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"text": "four", ');
    };
    expect((await failure(recognizer().transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' }))).reason).toBe('bad_response');
    handler = (_request, res) => json(res, 200, { transcript: 'four' });
    expect((await failure(recognizer().transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' }))).reason).toBe('bad_response');
  });

  it('reports an unreachable provider as a network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const error = await failure(
      recognizer({ baseUrl: `http://127.0.0.1:${port}/v1` }).transcribe({ file: audioFile, contentType: 'audio/webm', language: 'en' }),
    );
    expect(error.reason).toBe('network');
    expect(error.retryable).toBe(true);
  });

  it('reports an audio file that cannot be read as unsupported_audio', async () => {
    const error = await failure(recognizer().transcribe({ file: path.join(workDir, 'missing.webm'), contentType: 'audio/webm', language: 'en' }));
    expect(error.reason).toBe('unsupported_audio');
    expect(received).toHaveLength(0);
  });
});

describe('choosing a speech recognizer', () => {
  it('prefers the configured OpenAI-compatible provider', async () => {
    const choice = await createSpeechRecognizer({ stt: { baseUrl: `${baseUrl}/v1`, apiKey: API_KEY, model: 'whisper-1', timeoutMs: 1000 } });
    expect(choice.recognizer?.name).toBe('openai');
    expect(choice.description).toContain('127.0.0.1');
    expect(choice.description).not.toContain(API_KEY);
  });
});
