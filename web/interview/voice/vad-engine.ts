import * as ort from 'onnxruntime-web/wasm';
import { createFrameAnalyser } from '../../../shared/voice/frame-analysis.js';
import { createSileroVad } from '../../../shared/voice/silero-vad.js';
import type { FrameAnalysis } from '../../../shared/voice/types.js';

/**
 * The voice-analysis module the interview page imports when voice mode starts (its own bundle,
 * `/assets/interview-voice.<hash>.js`, so text mode never loads it): onnxruntime-web's WebAssembly
 * backend running Silero VAD, plus loudness and pitch, the same code the Node measurement of the
 * end-of-turn rule runs.
 */
export async function createVoiceAnalyser(files: { model: string; wasm: string }): Promise<(frame: Float32Array) => Promise<FrameAnalysis>> {
  // One thread: several need cross-origin isolation (SharedArrayBuffer), which the page does not
  // have, and workers the page's policy does not allow. Silero takes well under a millisecond a
  // frame on one. No proxy worker either, for the same reason.
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  // Every file from the service itself (the policy allows no other origin).
  ort.env.wasm.wasmPaths = { wasm: new URL(files.wasm, location.href).href };
  const response = await fetch(files.model, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`The voice model did not load (HTTP ${response.status}).`);
  const vad = await createSileroVad(ort, new Uint8Array(await response.arrayBuffer()));
  const analyser = createFrameAnalyser((frame) => vad.process(frame));
  return (frame) => analyser.analyse(frame);
}
