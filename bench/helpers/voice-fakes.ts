/**
 * Speech and chat providers for `bench/voice.ts`, on loopback, with fixed times to first byte:
 * real HTTP servers speaking the OpenAI-compatible protocols the service uses.
 *
 *   POST /v1/audio/transcriptions  multipart upload; JSON `{text, segments}` after STT_MS
 *   POST /v1/chat/completions      the interviewer's decision as one JSON completion after LLM_MS
 *                                  (the service asks without `stream`, so the fake does not stream)
 *   POST /v1/audio/speech          Ogg Opus (TTS_CLIP) after TTS_MS, then the rest in chunks
 *
 * The delay runs from the moment the request body has arrived, as a provider starts work then.
 * Every request is recorded with what the fake measured itself (arrival → body, arrival → first
 * byte written), and with the turn it belongs to: a `ref-<interview>-<turn>` marker that the
 * load generator writes into the last bytes of each uploaded WAV, that the transcription returns
 * in its text, that the interviewer's transition repeats, and so that the spoken text contains.
 * `GET /records` hands them over (`?reset=1` clears them), so the benchmark subtracts the delays
 * the fakes actually took, not the ones they were told to take.
 *
 *   PORT=… STT_MS=300 LLM_MS=400 TTS_MS=200 TTS_CLIP=clip.ogg node --import tsx bench/helpers/voice-fakes.ts
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type FakeRecord, REF_BYTES, REF_PATTERN } from './voice-refs.js';

const delays = { stt: Number(process.env.STT_MS ?? 300), llm: Number(process.env.LLM_MS ?? 400), tts: Number(process.env.TTS_MS ?? 200) };
const clip = process.env.TTS_CLIP ? readFileSync(process.env.TTS_CLIP) : Buffer.alloc(0);
/** The clip in this many writes, TTS_CHUNK_MS apart: audio arriving while it is "made". */
const CHUNKS = 8;
const CHUNK_MS = Number(process.env.TTS_CHUNK_MS ?? 20);
const records: FakeRecord[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The marker in the uploaded file's last bytes (the platform's own multipart parser reads the form). */
async function refOfUpload(body: Buffer, contentType: string): Promise<string | null> {
  const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  const file = form.get('file');
  if (!(file instanceof Blob)) return null;
  const bytes = Buffer.from(await file.arrayBuffer());
  return REF_PATTERN.exec(bytes.subarray(bytes.length - REF_BYTES).toString('latin1'))?.[0] ?? null;
}

/** The marker of the latest answer in the interviewer's prompt (earlier answers carry earlier markers). */
function refOfChat(json: any): string | null {
  const user = String(json?.messages?.find((message: any) => message.role === 'user')?.content ?? '');
  try {
    const transcript = JSON.parse(user.slice(user.indexOf('\n') + 1));
    return REF_PATTERN.exec(String(transcript.latestAnswer ?? ''))?.[0] ?? null;
  } catch {
    return REF_PATTERN.exec(user)?.[0] ?? null;
  }
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const arrived = performance.now();
  const body = await readBody(req);
  const bodyMs = performance.now() - arrived;
  const record = (kind: FakeRecord['kind'], ref: string | null, firstByte: number) =>
    records.push({ kind, ref, bodyMs: round(bodyMs), firstByteMs: round(firstByte - arrived), totalMs: round(performance.now() - arrived) });

  if (req.method === 'GET' && req.url === '/healthz') {
    res.writeHead(200).end('ok');
    return;
  }
  if (req.method === 'GET' && req.url?.startsWith('/records')) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(records));
    if (req.url.includes('reset=1')) records.length = 0;
    return;
  }
  if (req.method === 'POST' && req.url === '/v1/audio/transcriptions') {
    const ref = await refOfUpload(body, req.headers['content-type'] ?? '');
    await sleep(delays.stt - (performance.now() - arrived - bodyMs));
    const text = `The setup guide was clear and our team had the first survey running by Wednesday (${ref ?? 'no-ref'}).`;
    const answer = JSON.stringify({
      task: 'transcribe',
      language: 'english',
      duration: 4.5,
      text,
      segments: [{ id: 0, start: 0, end: 4.5, text, avg_logprob: -0.1, no_speech_prob: 0.01 }],
    });
    const firstByte = performance.now();
    res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    record('stt', ref, firstByte);
    return;
  }
  if (req.method === 'POST' && req.url === '/v1/chat/completions') {
    const ref = refOfChat(JSON.parse(body.toString('utf8')));
    await sleep(delays.llm - (performance.now() - arrived - bodyMs));
    const decision = { action: 'next', transition: `Thank you (${ref ?? 'no-ref'}).` };
    const answer = JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: 'bench',
      choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(decision) }, finish_reason: 'stop' }],
    });
    const firstByte = performance.now();
    res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    record('llm', ref, firstByte);
    return;
  }
  if (req.method === 'POST' && req.url === '/v1/audio/speech') {
    const ref = REF_PATTERN.exec(String(JSON.parse(body.toString('utf8')).input ?? ''))?.[0] ?? null;
    await sleep(delays.tts - (performance.now() - arrived - bodyMs));
    const size = Math.ceil(clip.length / CHUNKS);
    res.writeHead(200, { 'content-type': 'audio/ogg', 'transfer-encoding': 'chunked' });
    const firstByte = performance.now();
    for (let offset = 0; offset < clip.length; offset += size) {
      if (offset > 0) await sleep(CHUNK_MS);
      if (res.destroyed) break;
      res.write(clip.subarray(offset, offset + size));
    }
    res.end();
    record('tts', ref, firstByte);
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: String(error) } }));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () =>
  console.log(`voice fakes on ${process.env.PORT}: stt ${delays.stt} ms, llm ${delays.llm} ms, tts ${delays.tts} ms`),
);
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
