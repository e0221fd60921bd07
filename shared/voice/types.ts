/**
 * The contract between the voice pipeline's parts (issue "Voice-first interviews"): the interview
 * page and the Node measurement both cut the microphone into 16 kHz frames, analyse each frame
 * (Silero VAD's speech probability, loudness, pitch) and feed the analyses to the same
 * end-of-turn rule, which answers with turn events.
 */

/** Silero VAD v5 reads 512 samples at 16 kHz: one frame is 32 ms. */
export const VOICE_SAMPLE_RATE = 16_000;
export const VOICE_FRAME_SAMPLES = 512;
export const VOICE_FRAME_MS = (VOICE_FRAME_SAMPLES / VOICE_SAMPLE_RATE) * 1000;

/** A participant who goes on speaking this soon after the page ended their turn was cut off. */
export const CUT_OFF_WINDOW_MS = 2000;

/** What the rule knows of one frame. */
export interface FrameAnalysis {
  /** Silero VAD's probability that the frame holds speech, 0 to 1. */
  speechProbability: number;
  /** Root mean square of the samples (-1..1 scale). */
  rms: number;
  /** Fundamental frequency when the frame is voiced, else null. */
  pitchHz: number | null;
}

export type TurnEvent =
  | { type: 'speech_start'; atMs: number }
  | { type: 'speech_end'; atMs: number }
  /** The answer is over: `speechEndedAtMs` is the end of its last speech. */
  | { type: 'end_of_turn'; atMs: number; speechEndedAtMs: number };

/** One participant turn at a time; `reset` before the next. Times are the caller's clock (ms). */
export interface EndOfTurnDetector {
  push(frame: FrameAnalysis, atMs: number): TurnEvent[];
  /** "I need a moment": while held, silence never ends the turn. */
  hold(held: boolean): void;
  reset(): void;
}
