import { type FrameAnalysis, VOICE_FRAME_SAMPLES, VOICE_SAMPLE_RATE } from './types.js';

/**
 * What the end-of-turn rule hears in a frame besides Silero's speech probability: loudness and
 * pitch. Pitch is how the rule tells speech that sounds finished (a final fall) from speech that
 * sounds unfinished (level or rising); it is estimated with YIN (de Cheveigné & Kawahara 2002),
 * about 0.1 ms of arithmetic a frame, so the page can run it on every frame in real time.
 */

/** Voices between these are looked for: a low male voice to a high child's voice. */
const MIN_PITCH_HZ = 60;
const MAX_PITCH_HZ = 400;
const MIN_LAG = Math.floor(VOICE_SAMPLE_RATE / MAX_PITCH_HZ);
const MAX_LAG = Math.ceil(VOICE_SAMPLE_RATE / MIN_PITCH_HZ);
/**
 * YIN compares 16 ms of signal with itself up to the longest period later: the last 16 ms + 17 ms
 * of the frame and the end of the one before. Longer spans see synthetic and real voices glide
 * within them and call a third fewer vowel frames voiced (measured on espeak-ng speech).
 */
const SPAN_SAMPLES = 256;
const HISTORY_SAMPLES = 256;
const WINDOW_SAMPLES = HISTORY_SAMPLES + VOICE_FRAME_SAMPLES;
/** YIN's normalised difference below which a lag counts as the period (its paper's range). */
const YIN_THRESHOLD = 0.15;
/** Above this the best dip is too shallow to be a voice (noise, fricatives): unvoiced. */
const MAX_APERIODICITY = 0.35;
/** About -50 dBFS: quieter frames are not worth a pitch. */
const MIN_VOICED_RMS = 0.003;

export function rmsOf(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / samples.length);
}

/** The fundamental frequency at the end of `window` by YIN, or null when it is not clearly periodic. */
export function pitchOf(samples: Float32Array, sampleRate = VOICE_SAMPLE_RATE): number | null {
  const span = SPAN_SAMPLES;
  if (samples.length < span + MAX_LAG) return null;
  const window = samples.subarray(samples.length - span - MAX_LAG);
  const difference = new Float32Array(MAX_LAG + 1);
  for (let lag = 1; lag <= MAX_LAG; lag++) {
    let sum = 0;
    for (let i = 0; i < span; i++) {
      const delta = window[i]! - window[i + lag]!;
      sum += delta * delta;
    }
    difference[lag] = sum;
  }
  // Cumulative mean normalised difference: 1 at lag 0, dips towards 0 at the period.
  const normalised = new Float32Array(MAX_LAG + 1);
  normalised[0] = 1;
  let running = 0;
  for (let lag = 1; lag <= MAX_LAG; lag++) {
    running += difference[lag]!;
    normalised[lag] = running > 0 ? (difference[lag]! * lag) / running : 1;
  }
  // The first dip under the threshold (not the deepest: that is often an octave too low), else the deepest.
  let best = -1;
  for (let lag = MIN_LAG; lag <= MAX_LAG; lag++) {
    if (normalised[lag]! < YIN_THRESHOLD) {
      while (lag + 1 <= MAX_LAG && normalised[lag + 1]! < normalised[lag]!) lag++;
      best = lag;
      break;
    }
  }
  if (best < 0) {
    best = MIN_LAG;
    for (let lag = MIN_LAG + 1; lag <= MAX_LAG; lag++) if (normalised[lag]! < normalised[best]!) best = lag;
  }
  if (normalised[best]! > MAX_APERIODICITY) return null;
  // Parabolic interpolation around the dip for a period finer than one sample.
  let period = best;
  if (best > MIN_LAG && best < MAX_LAG) {
    const [a, b, c] = [normalised[best - 1]!, normalised[best]!, normalised[best + 1]!];
    const curvature = a + c - 2 * b;
    if (curvature > 0) period = best + (a - c) / (2 * curvature);
  }
  return sampleRate / period;
}

/** Loudness and pitch of consecutive frames (the pitch window reaches into the previous frame). */
export function createSignalAnalyser(): { analyse(frame: Float32Array): Pick<FrameAnalysis, 'rms' | 'pitchHz'>; reset(): void } {
  const window = new Float32Array(WINDOW_SAMPLES);
  return {
    analyse(frame) {
      window.copyWithin(0, WINDOW_SAMPLES - HISTORY_SAMPLES);
      window.set(frame, HISTORY_SAMPLES);
      const rms = rmsOf(frame);
      return { rms, pitchHz: rms >= MIN_VOICED_RMS ? pitchOf(window) : null };
    },
    reset() {
      window.fill(0);
    },
  };
}

/**
 * The whole analysis of a frame: Silero's speech probability (given as a function, so this file
 * needs no runtime), loudness and pitch. Frames must come in order, one stretch of audio.
 */
export function createFrameAnalyser(speechProbability: (frame: Float32Array) => Promise<number>): {
  analyse(frame: Float32Array): Promise<FrameAnalysis>;
  reset(): void;
} {
  const signal = createSignalAnalyser();
  return {
    async analyse(frame) {
      const { rms, pitchHz } = signal.analyse(frame);
      return { speechProbability: await speechProbability(frame), rms, pitchHz };
    },
    reset: () => signal.reset(),
  };
}
