import type { TResolvedTurnTaking } from '../../../shared/schemas/turn-taking.js';
import { type EndOfTurnDetector, type FrameAnalysis, type TurnEvent, VOICE_FRAME_MS } from '../../../shared/voice/types.js';

/**
 * INTERIM, to be replaced by the voice-eot branch's Silero analyser and end-of-turn rule before
 * merge (web/interview/voice/vad-runtime.ts, shared/voice/end-of-turn.ts): an energy detector
 * behind the same interfaces, so the page's pipeline and screens can be built and tested now.
 */
export interface VoiceAnalyser {
  analyse(frame: Float32Array): Promise<FrameAnalysis>;
  reset(): void;
}

export async function loadVoiceAnalyser(): Promise<VoiceAnalyser> {
  let floor = 0.003;
  return {
    async analyse(frame) {
      let sum = 0;
      for (let i = 0; i < frame.length; i++) sum += frame[i]! * frame[i]!;
      const rms = Math.sqrt(sum / frame.length);
      const db = 20 * Math.log10(Math.max(rms, 1e-6) / floor);
      if (db < 6) floor = floor * 0.95 + Math.max(rms, 1e-5) * 0.05;
      return { speechProbability: 1 / (1 + Math.exp(-(db - 12) / 2)), rms, pitchHz: null };
    },
    reset() {
      floor = 0.003;
    },
  };
}

export function createEndOfTurnDetector(settings: TResolvedTurnTaking): EndOfTurnDetector {
  let speaking = false;
  let run = 0;
  let quiet = 0;
  let heard = false;
  let held = false;
  let lastSpeechAt = 0;
  return {
    push(frame, atMs) {
      const events: TurnEvent[] = [];
      if (frame.speechProbability > 0.5) {
        run++;
        quiet = 0;
        if (!speaking && run >= 2) {
          speaking = true;
          heard = true;
          events.push({ type: 'speech_start', atMs: atMs - VOICE_FRAME_MS });
        }
        if (speaking) lastSpeechAt = atMs;
      } else {
        run = 0;
        quiet++;
        if (speaking && quiet * VOICE_FRAME_MS >= 200) {
          speaking = false;
          events.push({ type: 'speech_end', atMs: lastSpeechAt });
        }
        if (!speaking && heard && !held && atMs - lastSpeechAt >= settings.endOfTurnMs) {
          heard = false;
          events.push({ type: 'end_of_turn', atMs, speechEndedAtMs: lastSpeechAt });
        }
      }
      return events;
    },
    hold(value) {
      held = value;
    },
    reset() {
      speaking = false;
      heard = false;
      held = false;
      run = 0;
      quiet = 0;
    },
  };
}

/** Speech over the AI's audio: three speech frames in a row (about 100 ms). */
export function createBargeInDetector(): { push(frame: FrameAnalysis, atMs: number): boolean; reset(): void } {
  let run = 0;
  return {
    push(frame) {
      run = frame.speechProbability > 0.6 ? run + 1 : 0;
      return run >= 3;
    },
    reset() {
      run = 0;
    },
  };
}
