import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createFrameAnalyser } from '../../shared/voice/frame-analysis.js';
import { createSileroVad, type OrtModule, type SileroVad } from '../../shared/voice/silero-vad.js';
import { type FrameAnalysis, VOICE_FRAME_SAMPLES, VOICE_SAMPLE_RATE } from '../../shared/voice/types.js';
import { ROOT } from './processes.js';

/**
 * The page's analysis in Node: a WAV cut into the page's 512-sample frames, each through the same
 * Silero runner (onnxruntime-web's WebAssembly backend, as in the browser) and the same loudness
 * and pitch code. Analyses are cached by the audio's and the model's bytes and this version, so the
 * rule can be re-run on a whole set in a second. The key holds the analysis code's own text, so a
 * change to it is never read from an old cache.
 */
// Beside the rendered WAVs (os.tmpdir(), tests/fixtures/end-of-turn/generate.ts), not in
// node_modules: `npm ci` empties node_modules, and a CI run on a fresh clone then spent one to
// three minutes analysing again the same audio with the same model and code.
const CACHE_DIR = path.join(os.tmpdir(), 'interview-voice-analysis');

const require = createRequire(import.meta.url);
export const SILERO_MODEL_PATH = require.resolve('@ricky0123/vad-web/dist/silero_vad_v5.onnx');
const ANALYSIS_SOURCES = ['frame-analysis.ts', 'silero-vad.ts', 'types.ts'].map((file) => path.join(ROOT, 'shared', 'voice', file));

/** A mono 16 kHz 16-bit PCM WAV's samples (-1..1). */
export function decodeWav(bytes: Buffer): Float32Array {
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new Error('Not a WAV file.');
  let offset = 12;
  let format: { channels: number; rate: number; bits: number } | undefined;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') format = { channels: bytes.readUInt16LE(body + 2), rate: bytes.readUInt32LE(body + 4), bits: bytes.readUInt16LE(body + 14) };
    if (id === 'data') {
      if (!format || format.channels !== 1 || format.rate !== VOICE_SAMPLE_RATE || format.bits !== 16) {
        throw new Error(`Expected mono ${VOICE_SAMPLE_RATE} Hz 16-bit PCM, got ${JSON.stringify(format)}.`);
      }
      const end = Math.min(bytes.length, body + size);
      const samples = new Float32Array((end - body) >> 1);
      for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(body + i * 2) / 32768;
      return samples;
    }
    offset = body + size + (size & 1);
  }
  throw new Error('WAV without a data chunk.');
}

let vad: Promise<{ vad: SileroVad; version: string }> | undefined;

function nodeVad(): Promise<{ vad: SileroVad; version: string }> {
  vad ??= (async () => {
    const ort = (await import('onnxruntime-web/wasm')) as unknown as OrtModule & { env: { wasm: { numThreads?: number } } };
    // As on the page (no cross-origin isolation there): one thread.
    ort.env.wasm.numThreads = 1;
    const model = await readFile(SILERO_MODEL_PATH);
    const version = createHash('sha256').update(model);
    for (const source of ANALYSIS_SOURCES) version.update(await readFile(source));
    return { vad: await createSileroVad(ort, new Uint8Array(model)), version: version.digest('hex') };
  })();
  return vad;
}

/** Every whole frame of `samples`, analysed in order from a fresh state. */
export async function analyseSamples(samples: Float32Array): Promise<FrameAnalysis[]> {
  const { vad } = await nodeVad();
  vad.reset();
  const analyser = createFrameAnalyser((frame) => vad.process(frame));
  const frames: FrameAnalysis[] = [];
  for (let start = 0; start + VOICE_FRAME_SAMPLES <= samples.length; start += VOICE_FRAME_SAMPLES) {
    frames.push(await analyser.analyse(samples.subarray(start, start + VOICE_FRAME_SAMPLES)));
  }
  return frames;
}

/** A WAV's frame analyses, from the cache when the same audio was analysed by the same model and code. */
export async function analyseWav(file: string): Promise<FrameAnalysis[]> {
  const bytes = await readFile(file);
  const { version } = await nodeVad();
  const key = createHash('sha256').update(`${version}:`).update(bytes).digest('hex').slice(0, 32);
  const cached = path.join(CACHE_DIR, `${key}.json`);
  try {
    return JSON.parse(await readFile(cached, 'utf8')) as FrameAnalysis[];
  } catch {
    const frames = await analyseSamples(decodeWav(bytes));
    await mkdir(CACHE_DIR, { recursive: true });
    // Written whole, then renamed: runs side by side (two checkouts, a CI run) share the directory.
    const partial = `${cached}.${process.pid}-${randomBytes(4).toString('hex')}`;
    await writeFile(partial, JSON.stringify(frames));
    await rename(partial, cached);
    return frames;
  }
}
