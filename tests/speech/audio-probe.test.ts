import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeAudio } from '../../server/speech/audio-probe.js';
import { PNG } from '../helpers/images.js';

const run = promisify(execFile);

let dir: string;
let hasFfmpeg = false;

/** A 16-bit PCM WAV written field by field, so this test needs no tool to have one. */
function pcmWav(seconds: number, sampleRate = 16000, channels = 1): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const dataBytes = samples * channels * 2;
  const buffer = Buffer.alloc(44 + dataBytes);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(channels, 22);
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * channels * 2, 28);
  buffer.writeUInt16LE(channels * 2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples; i++) buffer.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)), 44 + i * channels * 2);
  return buffer;
}

/** 2.5 s of tone encoded by ffmpeg into `name` with the given codec arguments. */
async function encode(name: string, codecArgs: string[]): Promise<string> {
  const file = path.join(dir, name);
  await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2.5', ...codecArgs, file]);
  return file;
}

/**
 * What Chrome's MediaRecorder writes: no Duration element, and Segment and Clusters of
 * "unknown" size. ffmpeg's streamed WebM has the first two; the clusters are rewritten here.
 */
function withUnknownClusterSizes(webm: Buffer): Buffer {
  const clusterId = Buffer.from([0x1f, 0x43, 0xb6, 0x75]);
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = webm.indexOf(clusterId); at >= 0; at = webm.indexOf(clusterId, at + 4)) {
    const first = webm[at + 4]!;
    let sizeLength = 1;
    while (sizeLength <= 8 && !(first & (0x100 >> sizeLength))) sizeLength++;
    parts.push(webm.subarray(from, at + 4), Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]));
    from = at + 4 + sizeLength;
  }
  parts.push(webm.subarray(from));
  return Buffer.concat(parts);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'audio-probe-test-'));
  hasFfmpeg = await run('ffmpeg', ['-version']).then(
    () => true,
    () => false,
  );
  if (!hasFfmpeg) console.log('skipping the encoded-format audio probe tests: ffmpeg not found (apt-get install ffmpeg)');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('probeAudio', () => {
  it('reads format and duration of a WAV written byte by byte', async () => {
    const file = path.join(dir, 'tone.wav');
    await writeFile(file, pcmWav(1.5));
    expect(await probeAudio(file)).toEqual({ contentType: 'audio/wav', durationSeconds: 1.5 });
  });

  it('answers null for a PNG, random bytes, text and an empty file', async () => {
    const png = path.join(dir, 'pixel.png');
    await writeFile(png, PNG);
    const random = path.join(dir, 'random.bin');
    await writeFile(random, randomBytes(8192));
    const text = path.join(dir, 'notes.txt');
    await writeFile(text, 'four out of five\n');
    const empty = path.join(dir, 'empty.webm');
    await writeFile(empty, Buffer.alloc(0));

    for (const file of [png, random, text, empty]) expect(await probeAudio(file)).toBeNull();
  });

  it('answers null for a missing file', async () => {
    expect(await probeAudio(path.join(dir, 'nothing-here.wav'))).toBeNull();
  });

  describe('formats browsers record (made with ffmpeg)', () => {
    const cases: [string, string[], string][] = [
      ['tone.webm', ['-c:a', 'libopus'], 'audio/webm'],
      ['tone.ogg', ['-c:a', 'libopus'], 'audio/ogg'],
      ['tone-vorbis.ogg', ['-c:a', 'libvorbis'], 'audio/ogg'],
      ['tone.mp3', ['-c:a', 'libmp3lame'], 'audio/mpeg'],
      ['tone.m4a', ['-c:a', 'aac'], 'audio/mp4'],
      // Safari's MediaRecorder: fragmented MP4, which file-type calls video/mp4.
      ['tone-fragmented.mp4', ['-c:a', 'aac', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4'], 'audio/mp4'],
      ['tone-encoded.wav', ['-c:a', 'pcm_s16le', '-ar', '44100', '-ac', '2'], 'audio/wav'],
    ];

    for (const [name, codecArgs, contentType] of cases) {
      it(`${name} → ${contentType}, about 2.5 s`, async ({ skip }) => {
        if (!hasFfmpeg) skip();
        const facts = await probeAudio(await encode(name, codecArgs));
        expect(facts?.contentType).toBe(contentType);
        expect(facts?.durationSeconds).toBeGreaterThan(2.4);
        expect(facts?.durationSeconds).toBeLessThan(2.65);
      });
    }

    it('measures a WebM recorded as a stream (no Duration, clusters of unknown size) from its blocks', async ({ skip }) => {
      if (!hasFfmpeg) skip();
      const streamed = await encode('streamed.webm', ['-c:a', 'libopus', '-live', '1', '-f', 'webm']);
      const file = path.join(dir, 'mediarecorder.webm');
      await writeFile(file, withUnknownClusterSizes(await readFile(streamed)));

      const facts = await probeAudio(file);

      expect(facts?.contentType).toBe('audio/webm');
      expect(facts?.durationSeconds).toBeGreaterThan(2.4);
      expect(facts?.durationSeconds).toBeLessThan(2.65);
    });

    it('answers null for a WebM that holds video, recorded as a file or as a stream', async ({ skip }) => {
      if (!hasFfmpeg) skip();
      const video = (name: string, extra: string[]): Promise<void> =>
        run('ffmpeg', [
          '-nostdin',
          '-loglevel',
          'error',
          '-y',
          '-f',
          'lavfi',
          '-i',
          'testsrc=size=32x32:rate=5:duration=1',
          '-c:v',
          'libvpx',
          ...extra,
          path.join(dir, name),
        ]).then(() => undefined);
      await video('video.webm', []);
      await video('video-streamed.webm', ['-live', '1', '-f', 'webm']);
      const recorded = path.join(dir, 'video-mediarecorder.webm');
      await writeFile(recorded, withUnknownClusterSizes(await readFile(path.join(dir, 'video-streamed.webm'))));

      expect(await probeAudio(path.join(dir, 'video.webm'))).toBeNull();
      expect(await probeAudio(recorded)).toBeNull();
    });
  });
});
