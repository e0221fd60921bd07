import type { TResolvedTurnTaking } from '../schemas/turn-taking.js';
import { type EndOfTurnDetector, type FrameAnalysis, type TurnEvent, VOICE_FRAME_MS } from './types.js';

/**
 * When has the participant finished? A fixed wait after the last speech cannot be both quick and
 * safe: people pause inside answers for up to a second and a half, yet the AI should answer within
 * a breath of a finished one. So the rule listens to how the last stretch of speech ended:
 *
 * - speech that sounds finished (the pitch of its last voiced part falls below the speaker's level
 *   in that stretch, after an answer of some length) ends the turn after `endOfTurnMs` of silence;
 * - speech that sounds unfinished (level or rising at the end, a lone filler, a short first
 *   fragment) keeps the turn open for `pauseMs` of silence.
 *
 * Both waits come from the campaign's `settings.turnTaking`; the cues' thresholds are the rule's
 * (`EndOfTurnRule`), set once from the labelled set's dev split (docs/interviews.md, "Voice interviews").
 * Feed every frame in order with the time at its end (when its last sample was captured). A frame
 * is always 32 ms of audio (types.ts): durations are counted in frames, so frames that arrive in
 * bursts (an audio worklet posts several at once) count the same as evenly spaced ones.
 */

/** The rule's thresholds: interpretable, few, and the same for every language. */
export interface EndOfTurnRule {
  /** A frame is speech at or above this Silero probability… */
  speechThreshold: number;
  /** …and, once in speech, stays speech until the probability drops below this (hysteresis). */
  silenceThreshold: number;
  /** Consecutive speech frames that start speech: one loud click is not an answer. */
  onsetFrames: number;
  /** Silence (ms) that separates two stretches of speech; shorter gaps are inside a word or a comma. */
  stretchGapMs: number;
  /** The end of a stretch is its last voiced frames spanning this long (ms)… */
  finalWindowMs: number;
  /** …compared with the median pitch of the stretch before it: a fall of this many semitones sounds finished. */
  finalFallSemitones: number;
}

/**
 * Chosen on the labelled set's dev split (tests/interviewer/end-of-turn.test.ts, `npm run eval:end-of-turn`):
 * Silero's usual hysteresis (vad-web's defaults are 0.3 / 0.25; a little higher here, the end of
 * speech is then found sooner), espeak-ng's and people's comma gaps (under 250 ms) kept inside a
 * stretch, and a 2-semitone fall over the last 160 ms of voicing, which separated sentence ends
 * from level or rising ones best. Tried and left out, as they did not help on dev: the length of
 * the answer so far, and "has already gone on after a pause".
 */
export const DEFAULT_END_OF_TURN_RULE: EndOfTurnRule = {
  speechThreshold: 0.5,
  silenceThreshold: 0.35,
  onsetFrames: 2,
  stretchGapMs: 250,
  finalWindowMs: 160,
  finalFallSemitones: 2,
};

/** What the rule heard at the end of a stretch of speech, and why it chose its wait. */
export interface StretchEnding {
  /** Semitones from the stretch's median pitch to its final pitch (negative: a fall); null without enough voiced frames. */
  finalPitchSemitones: number | null;
  /** Speech in the turn so far (ms). */
  speechMs: number;
  finished: boolean;
}

const semitones = (ratio: number) => 12 * Math.log2(ratio);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Does a stretch of speech (its frames, in order) sound finished? */
export function judgeStretchEnding(stretch: readonly FrameAnalysis[], speechMs: number, frameMs: number, rule: EndOfTurnRule): StretchEnding {
  const voiced = stretch.map((frame) => frame.pitchHz).filter((pitch): pitch is number => pitch !== null);
  const finalCount = Math.max(2, Math.round(rule.finalWindowMs / frameMs));
  let finalPitchSemitones: number | null = null;
  // The final window against the rest of the stretch: at least as many voiced frames before it as in it.
  if (voiced.length >= finalCount * 2) {
    const final = median(voiced.slice(-finalCount));
    const before = median(voiced.slice(0, -finalCount));
    finalPitchSemitones = semitones(final / before);
  }
  // Too few voiced frames to hear a contour (a filler, "hmm", a clipped word): not finished.
  const finished = finalPitchSemitones !== null && finalPitchSemitones <= -rule.finalFallSemitones;
  return { finalPitchSemitones, speechMs, finished };
}

export interface EndOfTurnDetectorWithTrace extends EndOfTurnDetector {
  /** How the last stretch of speech ended (null before any): for the page's diagnostics and the measurement. */
  lastEnding(): StretchEnding | null;
}

export function createEndOfTurnDetector(settings: TResolvedTurnTaking, rule: EndOfTurnRule = DEFAULT_END_OF_TURN_RULE): EndOfTurnDetectorWithTrace {
  let inSpeech = false;
  let onsetRun = 0;
  let onsetStartMs = 0;
  let speechStarted = false;
  let lastSpeechEndMs = 0;
  let lastFrameAtMs: number | null = null;
  const frameMs = VOICE_FRAME_MS;
  /** Speech frames of the current stretch (joined across gaps shorter than stretchGapMs), for judging how it ends. */
  let stretch: FrameAnalysis[] = [];
  /** Frames of a speech onset not yet confirmed. */
  let pending: FrameAnalysis[] = [];
  let speechMs = 0;
  let ending: StretchEnding | null = null;
  let speechEndSent = true;
  let held = false;
  let heldUntilMs = 0;
  let ended = false;

  const reset = () => {
    inSpeech = false;
    onsetRun = 0;
    speechStarted = false;
    lastSpeechEndMs = 0;
    lastFrameAtMs = null;
    stretch = [];
    pending = [];
    speechMs = 0;
    ending = null;
    speechEndSent = true;
    held = false;
    heldUntilMs = 0;
    ended = false;
  };

  return {
    push(frame, atMs) {
      const events: TurnEvent[] = [];
      lastFrameAtMs = atMs;
      if (ended) return events;

      const probability = frame.speechProbability;
      const speech = inSpeech ? probability >= rule.silenceThreshold : probability >= rule.speechThreshold;
      if (speech) {
        if (inSpeech) {
          speechMs += frameMs;
          stretch.push(frame);
          lastSpeechEndMs = atMs;
          return events;
        }
        if (onsetRun === 0) onsetStartMs = atMs - frameMs;
        onsetRun++;
        pending.push(frame);
        if (onsetRun >= rule.onsetFrames) {
          inSpeech = true;
          // A gap too short to end a stretch joins the stretches: the comma inside a sentence.
          if (speechStarted && onsetStartMs - lastSpeechEndMs >= rule.stretchGapMs) stretch = [];
          if (!speechStarted || speechEndSent) events.push({ type: 'speech_start', atMs: onsetStartMs });
          speechStarted = true;
          speechEndSent = false;
          ending = null;
          speechMs += onsetRun * frameMs;
          stretch.push(...pending);
          pending = [];
          lastSpeechEndMs = atMs;
        }
        return events;
      }

      onsetRun = 0;
      pending = [];
      if (inSpeech) inSpeech = false;
      if (!speechStarted) return events;
      const silenceMs = atMs - lastSpeechEndMs;
      if (!speechEndSent && silenceMs >= rule.stretchGapMs) {
        speechEndSent = true;
        ending = judgeStretchEnding(stretch, speechMs, frameMs, rule);
        events.push({ type: 'speech_end', atMs: lastSpeechEndMs });
      }
      if (ending && !held) {
        const wait = ending.finished ? settings.endOfTurnMs : settings.pauseMs;
        // After "I need a moment" is let go, the silence counts from then.
        if (atMs - Math.max(lastSpeechEndMs, heldUntilMs) >= wait) {
          ended = true;
          events.push({ type: 'end_of_turn', atMs, speechEndedAtMs: lastSpeechEndMs });
        }
      }
      return events;
    },
    // reset() also lets go of a hold: the page sets it again for the next turn if the participant still holds.
    hold(value) {
      if (held && !value) heldUntilMs = lastFrameAtMs ?? 0;
      held = value;
    },
    reset,
    lastEnding: () => ending,
  };
}

/** The rule's defaults for barge-in: how sure and for how long before the AI's audio is stopped. */
export interface BargeInRule {
  /** Silero probability a frame needs to count: higher than for listening, the AI's own voice may leak through echo cancellation. */
  threshold: number;
  /** Consecutive such frames: two (64 ms) decide within 200 ms of onset, and a single loud frame (a click, a knock) never does. */
  frames: number;
  /** Quieter frames (RMS) do not count: leaked AI audio after echo cancellation is faint. */
  minRms: number;
}

/**
 * On the labelled set's dev answers (their first onset, as if the AI were speaking): decided 74 ms
 * after the onset at the median, 148 ms at p95. Three frames would take 182 ms at p95 and up to
 * 248 ms; a higher RMS floor misses quiet speakers' onsets for up to a second.
 */
export const DEFAULT_BARGE_IN_RULE: BargeInRule = { threshold: 0.7, frames: 2, minRms: 0.003 };

/**
 * Speech while the AI is speaking: `push` answers the onset time once the participant has clearly
 * started (then stays quiet until `reset`), so the page can stop the AI's audio.
 */
export interface BargeInDetector {
  push(frame: FrameAnalysis, atMs: number): { type: 'barge_in'; atMs: number; onsetMs: number } | null;
  reset(): void;
}

export function createBargeInDetector(rule: BargeInRule = DEFAULT_BARGE_IN_RULE): BargeInDetector {
  let run = 0;
  let onsetMs = 0;
  let fired = false;
  return {
    push(frame, atMs) {
      if (fired) return null;
      if (frame.speechProbability >= rule.threshold && frame.rms >= rule.minRms) {
        if (run === 0) onsetMs = atMs - VOICE_FRAME_MS;
        run++;
        if (run >= rule.frames) {
          fired = true;
          return { type: 'barge_in', atMs, onsetMs };
        }
      } else {
        run = 0;
      }
      return null;
    },
    reset() {
      run = 0;
      fired = false;
    },
  };
}
