import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake server received it: JSON bodies parsed, multipart bodies read as a FormData. */
export interface FakeOpenAiRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  json?: any;
  form?: FormData;
}

/** What the fake answers: a status and JSON body, or nothing at all (`hang`) until the client gives up. */
export type FakeOpenAiReply = { status?: number; body: unknown } | { hang: true };

export interface FakeOpenAi {
  /** e.g. `http://127.0.0.1:43121/v1`, for STT_BASE_URL or LLM_BASE_URL. */
  baseUrl: string;
  /** Every request received, oldest first. */
  requests: FakeOpenAiRequest[];
  /** Decides the reply to each request (a test sets it before the request it cares about); a promise holds the reply back until it settles. */
  respond: (request: FakeOpenAiRequest) => FakeOpenAiReply | Promise<FakeOpenAiReply>;
  close(): Promise<void>;
}

async function receive(req: IncomingMessage): Promise<FakeOpenAiRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const contentType = req.headers['content-type'] ?? '';
  const request: FakeOpenAiRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers };
  if (contentType.startsWith('multipart/form-data')) {
    // The platform's own multipart parser, as a real provider would read the upload.
    request.form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } else if (contentType.startsWith('application/json')) {
    request.json = JSON.parse(body.toString('utf8'));
  }
  return request;
}

/**
 * A local HTTP server speaking the OpenAI protocols the service uses (`POST /v1/audio/transcriptions`,
 * `POST /v1/chat/completions`), answering each request as the test says and recording what it got.
 */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake: Omit<FakeOpenAi, 'baseUrl' | 'close'> = {
    requests: [],
    respond: () => ({ status: 500, body: { error: { message: 'no reply configured' } } }),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    receive(req)
      .then(async (request) => {
        fake.requests.push(request);
        return fake.respond(request);
      })
      .then(
        (reply) => {
          if ('hang' in reply) return;
          res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply.body));
        },
        () => {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'unreadable request' } }));
        },
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A whisper-style `verbose_json` transcription of one segment with this average log probability. */
export function transcriptionReply(text: string, avgLogprob = -0.1): FakeOpenAiReply {
  return {
    status: 200,
    body: {
      task: 'transcribe',
      language: 'english',
      duration: 1,
      text,
      segments: [{ id: 0, start: 0, end: 1, text, avg_logprob: avgLogprob, no_speech_prob: 0.01 }],
    },
  };
}

/** A chat completion whose message content is this interviewer decision, as JSON. */
export function chatReply(decision: Record<string, unknown>): FakeOpenAiReply {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(decision) }, finish_reason: 'stop' }],
    },
  };
}
