import type { InferenceSession, Tensor } from 'onnxruntime-web';
import { VOICE_FRAME_SAMPLES, VOICE_SAMPLE_RATE } from './types.js';

/**
 * Silero VAD v5 (MIT, the model file as packaged by `@ricky0123/vad-web`, ISC) run on 512-sample
 * frames at 16 kHz with its recurrent state. The ONNX runtime is injected, so the interview page
 * (onnxruntime-web in the browser) and the Node measurement (onnxruntime-web's WebAssembly backend
 * in Node) run this same code on the same model.
 *
 * The model's interface (read from vad-web's `models/silero.ts` and the model's own metadata):
 * inputs `input` float32 [1, 64 + 512] (the last 64 samples of the previous frame, then the
 * frame: silero-vad's `OnnxWrapper` does the same, so an onset across a frame boundary is seen
 * whole), `state` float32 [2, 1, 128], `sr` int64 scalar; outputs `output` [1, 1] (speech
 * probability) and `stateN` (the next state).
 */

/** The part of an onnxruntime module this needs: onnxruntime-web's and onnxruntime-node's both fit. */
export interface OrtModule {
  InferenceSession: { create(model: Uint8Array, options?: InferenceSession.SessionOptions): Promise<InferenceSession> };
  Tensor: typeof Tensor;
}

export interface SileroVad {
  /** The speech probability (0..1) of the next 512-sample frame; calls are taken in order. */
  process(frame: Float32Array): Promise<number>;
  /** Forget the recurrent state (a new stretch of audio that does not continue the last). */
  reset(): void;
  release(): Promise<void>;
}

const CONTEXT_SAMPLES = 64;
const STATE_DIMS = [2, 1, 128];

export async function createSileroVad(ort: OrtModule, model: Uint8Array): Promise<SileroVad> {
  const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  const sampleRate = new ort.Tensor('int64', BigInt64Array.from([BigInt(VOICE_SAMPLE_RATE)]), []);
  const zeroState = () => new ort.Tensor('float32', new Float32Array(STATE_DIMS.reduce((a, b) => a * b, 1)), STATE_DIMS);
  let state: Tensor = zeroState();
  let context = new Float32Array(CONTEXT_SAMPLES);
  // The state makes frames depend on each other: a caller that does not await each frame (an audio
  // callback) still gets them run one after the other, in order.
  let queue: Promise<unknown> = Promise.resolve();

  const run = async (frame: Float32Array): Promise<number> => {
    if (frame.length !== VOICE_FRAME_SAMPLES) throw new Error(`Silero VAD takes frames of ${VOICE_FRAME_SAMPLES} samples, not ${frame.length}.`);
    const input = new Float32Array(CONTEXT_SAMPLES + VOICE_FRAME_SAMPLES);
    input.set(context, 0);
    input.set(frame, CONTEXT_SAMPLES);
    context = frame.slice(-CONTEXT_SAMPLES);
    const out = await session.run({ input: new ort.Tensor('float32', input, [1, input.length]), state, sr: sampleRate });
    const next = out.stateN;
    const probability = out.output?.data[0];
    if (!next || typeof probability !== 'number') throw new Error('Silero VAD answered without its output or state.');
    state.dispose();
    state = next;
    return probability;
  };

  return {
    process(frame) {
      const result = queue.then(() => run(frame));
      queue = result.catch(() => undefined);
      return result;
    },
    reset() {
      // After the frames already given: they belong to the stretch being forgotten.
      queue = queue.then(() => {
        state = zeroState();
        context = new Float32Array(CONTEXT_SAMPLES);
      });
    },
    async release() {
      await queue;
      await session.release();
    },
  };
}
