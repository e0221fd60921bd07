import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TURN_TAKING, resolveTurnTaking } from '../../shared/schemas/turn-taking.js';
import { createBargeInDetector, createEndOfTurnDetector } from '../../shared/voice/end-of-turn.js';
import { createSignalAnalyser, pitchOf, rmsOf } from '../../shared/voice/frame-analysis.js';
import { type FrameAnalysis, type TurnEvent, VOICE_FRAME_MS, VOICE_FRAME_SAMPLES, VOICE_SAMPLE_RATE } from '../../shared/voice/types.js';
import { type AnalysedAnswer, analyseEndOfTurnSet, type AnsweredTurn, figuresOf, figuresTable, runAnswer } from '../helpers/end-of-turn-eval.js';

/**
 * The end-of-turn rule (shared/voice/end-of-turn.ts): first on made-up frame sequences, one
 * behaviour each; then on the labelled audio set (tests/fixtures/end-of-turn, written blind by
 * another hand), every answer through the page's own analysis (Silero VAD on onnxruntime-web,
 * pitch, the rule). The rule was tuned on the dev split only; the held-out split is the measurement.
 *
 * Run time: about 10 s when the set's audio (os.tmpdir()) and its frame analyses
 * (os.tmpdir(), interview-voice-analysis) are cached; a cold run renders 200 answers with espeak-ng
 * (about a minute) and runs Silero over 27 minutes of audio (about 1 to 3 minutes on two busy cores).
 */

const speechFrame = (pitchHz: number | null, rms = 0.08, speechProbability = 0.95): FrameAnalysis => ({ speechProbability, rms, pitchHz });
const silenceFrame: FrameAnalysis = { speechProbability: 0.02, rms: 0.0005, pitchHz: null };

/** Frames of `ms` of speech whose pitch glides from `fromHz` to `toHz` (one frame in three unvoiced, like real speech). */
function speech(ms: number, fromHz: number, toHz: number): FrameAnalysis[] {
  const count = Math.round(ms / VOICE_FRAME_MS);
  return Array.from({ length: count }, (_, i) => speechFrame(i % 3 === 1 ? null : fromHz + ((toHz - fromHz) * i) / Math.max(1, count - 1)));
}
const silence = (ms: number) => Array.from({ length: Math.round(ms / VOICE_FRAME_MS) }, () => silenceFrame);

/** Feeds frames at the times their audio ends, from `startMs`; answers every event. */
function feed(detector: { push(frame: FrameAnalysis, atMs: number): TurnEvent[] }, frames: FrameAnalysis[], clock = { ms: 0 }): TurnEvent[] {
  const events: TurnEvent[] = [];
  for (const frame of frames) {
    clock.ms += VOICE_FRAME_MS;
    events.push(...detector.push(frame, clock.ms));
  }
  return events;
}
const endOf = (events: TurnEvent[]) => events.find((event) => event.type === 'end_of_turn');

describe('the end-of-turn rule on frame sequences', () => {
  const settings = resolveTurnTaking({ endOfTurnMs: 600, pauseMs: 2000 });

  it('speech that ends with a pitch fall ends the turn endOfTurnMs after its last speech frame, with speech_start and speech_end first', () => {
    const detector = createEndOfTurnDetector(settings);
    const events = feed(detector, [...silence(500), ...speech(1500, 130, 128), ...speech(300, 125, 95), ...silence(3000)]);
    expect(events.map((event) => event.type)).toEqual(['speech_start', 'speech_end', 'end_of_turn']);
    const speechEnd = events[1]!.atMs;
    expect(speechEnd).toBeCloseTo(500 + 1800, -2);
    const end = endOf(events)!;
    expect(end).toMatchObject({ speechEndedAtMs: speechEnd });
    expect(end.atMs - speechEnd).toBeGreaterThanOrEqual(600);
    expect(end.atMs - speechEnd).toBeLessThan(600 + VOICE_FRAME_MS);
    expect(detector.lastEnding()).toMatchObject({ finished: true });
  });

  it('speech that ends level or rising keeps the turn open for pauseMs, not endOfTurnMs', () => {
    for (const [from, to] of [
      [120, 121],
      [120, 160],
    ] as const) {
      const detector = createEndOfTurnDetector(settings);
      const events = feed(detector, [...speech(1500, 120, 120), ...speech(300, from, to), ...silence(3000)]);
      const speechEnd = events.find((event) => event.type === 'speech_end')!.atMs;
      expect(detector.lastEnding()).toMatchObject({ finished: false });
      expect(endOf(events)!.atMs - speechEnd).toBeGreaterThanOrEqual(2000);
      expect(endOf(events)!.atMs - speechEnd).toBeLessThan(2000 + VOICE_FRAME_MS);
    }
  });

  it('a pause shorter than pauseMs after unfinished-sounding speech does not end the turn; the answer goes on', () => {
    const detector = createEndOfTurnDetector(settings);
    const clock = { ms: 0 };
    const first = feed(detector, [...speech(1200, 120, 150), ...silence(1500)], clock);
    expect(endOf(first)).toBeUndefined();
    const rest = feed(detector, [...speech(1000, 130, 90), ...silence(2000)], clock);
    expect(rest.map((event) => event.type)).toEqual(['speech_start', 'speech_end', 'end_of_turn']);
    expect(endOf(rest)!.atMs).toBeGreaterThan(1200 + 1500 + 1000);
  });

  it('a filler without enough voicing to hear a fall ("hmm") is unfinished', () => {
    const detector = createEndOfTurnDetector(settings);
    const events = feed(detector, [...Array.from({ length: 8 }, () => speechFrame(null)), ...silence(1500)]);
    expect(detector.lastEnding()).toMatchObject({ finalPitchSemitones: null, finished: false });
    expect(endOf(events)).toBeUndefined();
  });

  it('"I need a moment": while held, no silence ends the turn; released, the wait starts again from the release', () => {
    const detector = createEndOfTurnDetector(settings);
    const clock = { ms: 0 };
    feed(detector, speech(1500, 130, 90), clock);
    detector.hold(true);
    expect(endOf(feed(detector, silence(10_000), clock))).toBeUndefined();
    detector.hold(false);
    const releasedAt = clock.ms;
    const after = feed(detector, silence(1000), clock);
    expect(endOf(after)!.atMs - releasedAt).toBeGreaterThanOrEqual(600);
    expect(endOf(after)!.atMs - releasedAt).toBeLessThan(600 + 2 * VOICE_FRAME_MS);
  });

  it('one loud frame (a click) is not speech: no speech_start, and silence never ends a turn that has not begun', () => {
    const detector = createEndOfTurnDetector(settings);
    const events = feed(detector, [...silence(1000), speechFrame(140), ...silence(5000)]);
    expect(events).toEqual([]);
  });

  it('ends a turn once; reset starts the next', () => {
    const detector = createEndOfTurnDetector(settings);
    const clock = { ms: 0 };
    expect(endOf(feed(detector, [...speech(1000, 130, 90), ...silence(1000)], clock))).toBeDefined();
    expect(feed(detector, [...speech(1000, 130, 90), ...silence(1000)], clock)).toEqual([]);
    detector.reset();
    expect(endOf(feed(detector, [...speech(1000, 130, 90), ...silence(1000)], clock))).toBeDefined();
  });

  it('frames that arrive in bursts (an audio worklet posting four at once) are judged as evenly spaced ones', () => {
    const detector = createEndOfTurnDetector(settings);
    const frames = [...speech(1500, 130, 128), ...speech(300, 125, 95), ...silence(3000)];
    const events: TurnEvent[] = [];
    frames.forEach((frame, index) => events.push(...detector.push(frame, (Math.floor(index / 4) + 1) * 4 * VOICE_FRAME_MS)));
    expect(detector.lastEnding()).toMatchObject({ finished: true });
    const speechEnd = events.find((event) => event.type === 'speech_end')!.atMs;
    expect(endOf(events)!.atMs - speechEnd).toBeGreaterThanOrEqual(600);
    expect(endOf(events)!.atMs - speechEnd).toBeLessThanOrEqual(600 + 4 * VOICE_FRAME_MS);
  });

  it("follows the campaign's settings.turnTaking (resolved over the defaults)", () => {
    const detector = createEndOfTurnDetector(resolveTurnTaking({ endOfTurnMs: 1500 }));
    const events = feed(detector, [...speech(1500, 130, 90), ...silence(3000)]);
    const speechEnd = events.find((event) => event.type === 'speech_end')!.atMs;
    expect(endOf(events)!.atMs - speechEnd).toBeGreaterThanOrEqual(1500);
    expect(resolveTurnTaking({ endOfTurnMs: 1500 }).pauseMs).toBe(DEFAULT_TURN_TAKING.pauseMs);
  });
});

describe('barge-in on frame sequences', () => {
  it('decides within 200 ms of the onset of speech, once, until reset', () => {
    const detector = createBargeInDetector();
    const clock = { ms: 0 };
    const decisions: { atMs: number; onsetMs: number }[] = [];
    const push = (frames: FrameAnalysis[]) => {
      for (const frame of frames) {
        clock.ms += VOICE_FRAME_MS;
        const decision = detector.push(frame, clock.ms);
        if (decision) decisions.push(decision);
      }
    };
    push(silence(1000));
    const onsetMs = clock.ms;
    push(speech(1000, 140, 140));
    expect(decisions).toHaveLength(1);
    expect(decisions[0]!.onsetMs).toBe(onsetMs);
    expect(decisions[0]!.atMs - onsetMs).toBeLessThanOrEqual(200);
    detector.reset();
    push([...silence(500), ...speech(500, 140, 140)]);
    expect(decisions).toHaveLength(2);
  });

  it('ignores a single loud frame, separate ones, uncertain frames and faint ones (echo the browser did not cancel)', () => {
    const detector = createBargeInDetector();
    const frames = [
      ...silence(500),
      speechFrame(150),
      ...silence(200),
      speechFrame(150),
      ...silence(200),
      ...Array.from({ length: 20 }, () => speechFrame(150, 0.08, 0.55)),
      ...Array.from({ length: 20 }, () => speechFrame(150, 0.001, 0.95)),
    ];
    expect(frames.map((frame, index) => detector.push(frame, (index + 1) * VOICE_FRAME_MS)).filter(Boolean)).toEqual([]);
  });
});

describe('frame analysis', () => {
  const tone = (hz: number, harmonics = [1, 0.5, 0.3], samples = VOICE_FRAME_SAMPLES * 2) =>
    Float32Array.from({ length: samples }, (_, n) =>
      harmonics.reduce((sum, gain, k) => sum + 0.2 * gain * Math.sin((2 * Math.PI * hz * (k + 1) * n) / VOICE_SAMPLE_RATE), 0),
    );

  it('finds the pitch of a voice from a low man to a child within 2%, and none in noise or silence', () => {
    for (const hz of [75, 110, 180, 260, 380]) expect(Math.abs(pitchOf(tone(hz))! - hz) / hz).toBeLessThan(0.02);
    let seed = 1;
    const noise = Float32Array.from({ length: VOICE_FRAME_SAMPLES * 2 }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.4);
    expect(pitchOf(noise)).toBeNull();
    const analyser = createSignalAnalyser();
    expect(analyser.analyse(new Float32Array(VOICE_FRAME_SAMPLES))).toEqual({ rms: 0, pitchHz: null });
  });

  it('measures loudness as RMS and takes the pitch window across frames', () => {
    expect(rmsOf(Float32Array.from({ length: 512 }, (_, n) => (n % 2 ? 0.5 : -0.5)))).toBeCloseTo(0.5, 6);
    const signal = tone(100, [1, 0.5, 0.3], VOICE_FRAME_SAMPLES * 3);
    const analyser = createSignalAnalyser();
    const results = [0, 1, 2].map((i) => analyser.analyse(signal.subarray(i * VOICE_FRAME_SAMPLES, (i + 1) * VOICE_FRAME_SAMPLES)));
    expect(Math.abs(results[2]!.pitchHz! - 100)).toBeLessThan(2);
  });
});

describe('on the labelled audio set (Silero VAD, pitch and the rule, as on the page)', () => {
  let set: AnalysedAnswer[] = [];
  let turns: AnsweredTurn[] = [];
  const heldout = () => figuresOf(turns.filter((turn) => turn.answer.split === 'heldout'));

  beforeAll(async () => {
    const started = Date.now();
    set = await analyseEndOfTurnSet();
    turns = set.map((answer) => runAnswer(answer, DEFAULT_TURN_TAKING));
    console.log(
      `end of turn at the defaults (endOfTurnMs ${DEFAULT_TURN_TAKING.endOfTurnMs}, pauseMs ${DEFAULT_TURN_TAKING.pauseMs}), ${set.length} answers in ${Date.now() - started} ms:\n${figuresTable(turns)}`,
    );
  }, 900_000);

  it('covers the whole set: 200 answers in five languages, every turn decided', () => {
    expect(set).toHaveLength(200);
    expect(new Set(set.map(({ answer }) => answer.language))).toEqual(new Set(['en', 'nl', 'de', 'fr', 'es']));
    expect(turns.filter((turn) => turn.endOfTurnMs === null)).toEqual([]);
  });

  // The measured figures, as regression bounds: a change to the rule or the analysis that makes
  // them worse fails here. Held-out, first measured: 6.3% premature, p50 1301 ms, p95 1968 ms.
  it('held-out: at most 7% of answers ended before the participant had finished (measured 6.3%)', () => {
    expect(heldout().prematurePercent).toBeLessThanOrEqual(7);
  });

  it('held-out: end of speech → end-of-turn decision p50 at most 1350 ms, p95 at most 2100 ms (measured 1301 / 1968)', () => {
    expect(heldout().latencyP50Ms).toBeLessThanOrEqual(1350);
    expect(heldout().latencyP95Ms).toBeLessThanOrEqual(2100);
  });

  it('held-out: barge-in decided within 200 ms of the onset of speech for 95% of answers', () => {
    expect(heldout().bargeInP95Ms).toBeLessThanOrEqual(200);
  });

  // The targets, both at once. NOT MET on this set, and not for want of tuning: in a fifth
  // of its answers a complete sentence ("Yes.", "It's fine.") is followed by a pause of up to 1.5 s
  // and more speech, and nothing in the audio before that pause tells it from the end of an answer
  // (see the trade-off table `npm run eval:end-of-turn` prints). `it.fails` keeps that visible: it turns red the day a rule
  // meets both, and should then become a plain `it`.
  it.fails("the issue's targets, NOT MET: held-out premature ≤ 5% and decision p50 ≤ 800 ms at the same settings", () => {
    expect(heldout().prematurePercent).toBeLessThanOrEqual(5);
    expect(heldout().latencyP50Ms).toBeLessThanOrEqual(800);
  });
});
