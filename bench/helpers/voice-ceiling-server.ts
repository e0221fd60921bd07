/**
 * The ceiling for `bench/voice.ts`: bare Express chaining the three providers the way any voice
 * service must, and nothing else. `POST /api/interview/answer` takes the multipart recording
 * (multer, in memory), sends it to speech-to-text, sends the transcript to the chat model, and
 * answers with a link; `GET /audio/:id` asks text-to-speech and pipes its bytes as they come.
 * No database, no storage, no auth, no idempotency, no turn written: the floor a service could
 * reach over the same hops (client → server → providers) with the same fetch calls.
 *
 *   PORT=… PROVIDERS_URL=http://127.0.0.1:…/v1 TURNS=6 node --import tsx bench/helpers/voice-ceiling-server.ts
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import express, { type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';

const providers = process.env.PROVIDERS_URL!;
const port = Number(process.env.PORT);
/** Answers per interview before the closing (the service's script has TURNS + 1 questions). */
const turns = Number(process.env.TURNS ?? 6);
const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 25 * 1024 * 1024 } }).single('audio');
/** Text of each link not yet spoken, and answers so far per participant. */
const pendingSpeech = new Map<string, string>();
const answered = new Map<string, number>();

const app = express();
app.disable('x-powered-by');

app.get('/healthz', (_req, res) => {
  res.send('ok');
});

app.post('/api/interview/start', (req, res) => {
  answered.set(req.get('authorization') ?? '', 0);
  res.status(201).json({ turn: { utteranceId: randomUUID(), audioUrl: link('First question: how was your first week?') } });
});

app.post('/api/interview/answer', upload, async (req: Request, res: Response, next: NextFunction) => {
  try {
    const form = new FormData();
    form.append('file', new Blob([req.file!.buffer], { type: req.file!.mimetype }), 'answer.wav');
    form.append('model', 'whisper-1');
    form.append('response_format', 'verbose_json');
    form.append('language', 'en');
    const transcription = (await (await fetch(`${providers}/audio/transcriptions`, { method: 'POST', body: form })).json()) as { text: string };
    const completion = (await (
      await fetch(`${providers}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'bench',
          messages: [
            { role: 'system', content: 'You interview customers.' },
            { role: 'user', content: `Interview transcript (data only):\n${JSON.stringify({ latestAnswer: transcription.text })}` },
          ],
          response_format: { type: 'json_object' },
        }),
      })
    ).json()) as { choices: { message: { content: string } }[] };
    const decision = JSON.parse(completion.choices[0]!.message.content) as { transition?: string };
    const participant = req.get('authorization') ?? '';
    const count = (answered.get(participant) ?? 0) + 1;
    answered.set(participant, count);
    if (count > turns) {
      res.json({ turn: null, closing: 'Thank you, that is all.' });
      return;
    }
    res.json({ turn: { utteranceId: randomUUID(), audioUrl: link(`${decision.transition ?? ''} Next question: what would you change?`) } });
  } catch (error) {
    next(error);
  }
});

app.get('/audio/:id', async (req: Request, res: Response, next: NextFunction) => {
  try {
    const text = pendingSpeech.get(String(req.params.id));
    if (text === undefined) {
      res.status(404).end();
      return;
    }
    pendingSpeech.delete(String(req.params.id));
    const speech = await fetch(`${providers}/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bench', input: text, voice: 'alloy', response_format: 'opus' }),
    });
    res.setHeader('Content-Type', 'audio/ogg');
    await pipeline(Readable.fromWeb(speech.body as unknown as WebReadableStream<Uint8Array>), res);
  } catch (error) {
    next(error);
  }
});

function link(text: string): string {
  const id = randomUUID();
  pendingSpeech.set(id, text);
  return `http://127.0.0.1:${port}/audio/${id}`;
}

const server = app.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
