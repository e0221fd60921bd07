import type { FrameAnalysis } from '../../../shared/voice/types.js';
import type { createVoiceAnalyser } from './vad-engine.js';

/** The voice files' URLs (content-hashed), set by the page's build (server/web/build-web-assets.ts). */
declare const __VOICE_RUNTIME__: { module: string; model: string; wasm: string };

let loading: Promise<(frame: Float32Array) => Promise<FrameAnalysis>> | undefined;

/**
 * The analysis of 512-sample frames of 16 kHz microphone audio (Silero VAD's speech probability,
 * loudness, pitch) for the end-of-turn rule (`shared/voice/end-of-turn.ts`). Loads the voice
 * module, the model and the WebAssembly runtime (about 4 MB compressed, cached for good after the
 * first time) on the first call; later calls share it. Give it frames in order, one at a time
 * or not: they are analysed in order (the model carries state from one frame to the next).
 */
export function loadVoiceAnalyser(): Promise<(frame: Float32Array) => Promise<FrameAnalysis>> {
  loading ??= (async () => {
    const engine = (await import(__VOICE_RUNTIME__.module)) as { createVoiceAnalyser: typeof createVoiceAnalyser };
    return engine.createVoiceAnalyser(__VOICE_RUNTIME__);
  })();
  // A failed load (offline, blocked) may be retried by the next call.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
