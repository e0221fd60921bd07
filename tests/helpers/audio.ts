import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import type supertest from 'supertest';
import { monoPcm16WavHeader } from '../../shared/voice/wav.js';
import type { TestApp } from './test-app.js';

const run = promisify(execFile);

/** A mono 16 kHz 16-bit PCM WAV of a tone with a little noise, so every recording's bytes differ. */
export function wav(seconds: number, frequency = 440): Buffer {
  const rate = 16_000;
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  const noise = randomBytes(samples);
  for (let i = 0; i < samples; i++) {
    const value = Math.sin((2 * Math.PI * frequency * i) / rate) * 8000 + (noise[i]! - 128) * 4;
    data.writeInt16LE(Math.round(value), i * 2);
  }
  const header = Buffer.from(monoPcm16WavHeader(samples, rate));
  return Buffer.concat([header, data]);
}

/** A real PCM WAV of `samples` silent 16-bit mono samples at 8 kHz: a small audio file of an exact size (44 + 2 × samples bytes). */
export function silentWav(samples: number): Buffer {
  return Buffer.concat([Buffer.from(monoPcm16WavHeader(samples, 8000)), Buffer.alloc(samples * 2)]);
}

/** Reads a response body as bytes, whatever its type (PDF, ZIP, audio). */
export function asBytes(test: supertest.Test): supertest.Test {
  return test.buffer(true).parse((res, callback) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => callback(null, Buffer.concat(chunks)));
  });
}

/** GETs a signed link through the app itself (its host is PUBLIC_URL's), reading the body as bytes. */
export function download(app: TestApp, url: string): supertest.Test {
  return asBytes(app.http.get(new URL(url).pathname));
}

/**
 * `minutes` of silence as Ogg Opus at 6 kbit/s (about 17 KB a minute), written to `file` by
 * ffmpeg: one minute encoded, then repeated without re-encoding, so even an hour takes a moment.
 */
export async function silentOpus(ffmpeg: string, minutes: number, file: string): Promise<void> {
  const oneMinute = `${file}.minute.ogg`;
  const quiet = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];
  await run(ffmpeg, [
    ...quiet,
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=48000:cl=mono',
    '-t',
    '60',
    '-c:a',
    'libopus',
    '-b:a',
    '6k',
    '-frame_duration',
    '60',
    oneMinute,
  ]);
  await run(ffmpeg, [...quiet, '-stream_loop', String(minutes - 1), '-i', oneMinute, '-c', 'copy', file]);
  await rm(oneMinute, { force: true });
}
