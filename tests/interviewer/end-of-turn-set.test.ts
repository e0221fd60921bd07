import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateEndOfTurnSet, readEndOfTurnSpec, readWavSamples, SAMPLE_RATE, type LabelledAnswer } from '../fixtures/end-of-turn/generate.js';

/**
 * Checks the end-of-turn audio set itself (tests/fixtures/end-of-turn), not any rule: the spec is
 * what it says, every item renders, and the labels match the audio. A cold render of all items
 * takes about 50 s on two busy cores (espeak-ng and sox, two items at a time); later runs read the
 * cache in os.tmpdir().
 */
const LANGUAGES = ['en', 'nl', 'de', 'fr', 'es'] as const;
const spec = readEndOfTurnSpec();
const byId = new Map(spec.items.map((item) => [item.id, item]));
let answers: LabelledAnswer[] = [];
const samples = new Map<string, Int16Array>();

beforeAll(async () => {
  answers = await generateEndOfTurnSet();
  for (const answer of answers) samples.set(answer.id, readWavSamples(readFileSync(answer.file)));
}, 300_000);

const at = (ms: number) => Math.round((ms * SAMPLE_RATE) / 1000);
function rms(audio: Int16Array, fromMs: number, toMs: number): number {
  const from = Math.max(0, at(fromMs));
  const to = Math.min(audio.length, at(toMs));
  let sum = 0;
  for (let i = from; i < to; i++) sum += audio[i]! * audio[i]!;
  return Math.sqrt(sum / Math.max(1, to - from));
}
/** The loudest window of `windowMs` between two times, stepping 5 ms. */
function loudest(audio: Int16Array, fromMs: number, toMs: number, windowMs: number): number {
  let max = 0;
  for (let t = fromMs; t + windowMs <= toMs; t += 5) max = Math.max(max, rms(audio, t, t + windowMs));
  return max;
}
const db = (ratio: number) => 20 * Math.log10(ratio);

describe('the spec (answers.json)', () => {
  it('has unique ids, 40 answers per language, about 60/40 dev/heldout and about 60% with a pause inside', () => {
    expect(new Set(spec.items.map((item) => item.id)).size).toBe(spec.items.length);
    for (const language of LANGUAGES) {
      const items = spec.items.filter((item) => item.language === language);
      expect(items.length, language).toBe(40);
      const heldout = items.filter((item) => item.split === 'heldout').length / items.length;
      expect(heldout, language).toBeGreaterThanOrEqual(0.35);
      expect(heldout, language).toBeLessThanOrEqual(0.45);
      const withPause = items.filter((item) => item.pausesMs.length > 0).length / items.length;
      expect(withPause, language).toBeGreaterThanOrEqual(0.55);
      expect(withPause, language).toBeLessThanOrEqual(0.7);
      expect(items.filter((item) => item.kind === 'short').length, language).toBeGreaterThanOrEqual(10);
    }
  });

  it('pauses are 300 to 1500 ms, trailing silence at least 3 s, speeds 140 to 190 wpm, noise levels as described', () => {
    for (const item of spec.items) {
      for (const pause of item.pausesMs) expect(pause, item.id).toBeGreaterThanOrEqual(300);
      for (const pause of item.pausesMs) expect(pause, item.id).toBeLessThanOrEqual(1500);
      expect(item.trailingSilenceMs, item.id).toBeGreaterThanOrEqual(3000);
      expect(item.speed, item.id).toBeGreaterThanOrEqual(140);
      expect(item.speed, item.id).toBeLessThanOrEqual(190);
      expect(item.voice.startsWith(item.language), item.id).toBe(true);
      if (item.noise !== null) expect([10, 20, 30]).toContain(item.noise.snrDb);
    }
    const noiseTypes = new Set(spec.items.map((item) => item.noise?.type ?? 'clean'));
    expect([...noiseTypes].sort()).toEqual(['brown', 'clean', 'pink', 'white']);
  });
});

describe('the rendered set', () => {
  it('every item renders to a 16 kHz mono WAV with consistent labels', () => {
    expect(answers.map((answer) => answer.id)).toEqual(spec.items.map((item) => item.id));
    for (const answer of answers) {
      const item = byId.get(answer.id)!;
      const audio = samples.get(answer.id)!;
      const header = readFileSync(answer.file).subarray(0, 44);
      expect(header.readUInt32LE(24), answer.id).toBe(SAMPLE_RATE);
      expect(answer.durationMs, answer.id).toBeCloseTo((audio.length * 1000) / SAMPLE_RATE, 3);
      expect(answer.language).toBe(item.language);
      expect(answer.split).toBe(item.split);
      expect(answer.speechSegments.length, answer.id).toBe(item.segments.length);
      expect(answer.speechSegments[0]!.startMs, answer.id).toBeCloseTo(item.leadingSilenceMs, 3);
      for (const [index, segment] of answer.speechSegments.entries()) {
        expect(segment.endMs, answer.id).toBeGreaterThan(segment.startMs + 50);
        if (index > 0) expect(segment.startMs, answer.id).toBeGreaterThan(answer.speechSegments[index - 1]!.endMs);
      }
      expect(answer.insidePausesMs.length, answer.id).toBe(item.pausesMs.length);
      for (const [index, pause] of answer.insidePausesMs.entries()) {
        expect(pause, answer.id).toBeCloseTo(item.pausesMs[index]!, 3);
        expect(pause, answer.id).toBeGreaterThanOrEqual(300);
        expect(pause, answer.id).toBeLessThanOrEqual(1500);
      }
      expect(answer.speechEndMs, answer.id).toBe(answer.speechSegments.at(-1)!.endMs);
      expect(answer.speechEndMs, answer.id).toBeLessThan(answer.durationMs - 2500);
      expect(answer.durationMs - answer.speechEndMs, answer.id).toBeCloseTo(item.trailingSilenceMs, 3);
    }
  });

  it('outside the speech spans there is nothing louder than the noise floor of the trailing silence', () => {
    for (const answer of answers) {
      const audio = samples.get(answer.id)!;
      // the loudest 30 ms of noise alone; brown noise swings a few dB from window to window, hence the 3 dB
      const floor = loudest(audio, answer.speechEndMs + 100, answer.durationMs, 30);
      const gaps = [
        { from: 0, to: answer.speechSegments[0]!.startMs },
        ...answer.speechSegments.slice(1).map((segment, index) => ({ from: answer.speechSegments[index]!.endMs, to: segment.startMs })),
      ];
      for (const gap of gaps) {
        const outside = loudest(audio, gap.from + 10, gap.to - 10, 30);
        if (floor === 0) expect(outside, `${answer.id} ${gap.from}-${gap.to}`).toBe(0);
        else expect(db(outside / floor), `${answer.id} ${gap.from}-${gap.to}`).toBeLessThan(3);
      }
    }
  });

  it('in clean items, speech reaches to within 30 ms of each labelled start and end, and is louder than the noise across spans in noisy ones', () => {
    for (const answer of answers) {
      const item = byId.get(answer.id)!;
      const audio = samples.get(answer.id)!;
      if (item.noise === null) {
        for (const segment of answer.speechSegments) {
          let peak = 0;
          for (let i = at(segment.startMs); i < at(segment.endMs); i++) peak = Math.max(peak, Math.abs(audio[i]!));
          // each segment was cut where espeak's output first and last came within 40 dB of its peak:
          // within 30 ms of each edge there is speech, not a silence the labels would wrongly include
          expect(db(loudest(audio, segment.startMs, segment.startMs + 30, 10) / peak), `${answer.id} start ${segment.startMs}`).toBeGreaterThan(-55);
          expect(db(loudest(audio, segment.endMs - 30, segment.endMs, 10) / peak), `${answer.id} end ${segment.endMs}`).toBeGreaterThan(-55);
        }
      } else {
        // the SNR measured back from the mix (speech power = power in spans − noise power) is the spec's
        const noisePower = rms(audio, answer.speechEndMs + 100, answer.durationMs) ** 2;
        let power = 0;
        let length = 0;
        for (const segment of answer.speechSegments) {
          power += rms(audio, segment.startMs, segment.endMs) ** 2 * (segment.endMs - segment.startMs);
          length += segment.endMs - segment.startMs;
        }
        const snr = 10 * Math.log10((power / length - noisePower) / noisePower);
        expect(Math.abs(snr - item.noise.snrDb), `${answer.id} SNR ${snr.toFixed(1)} dB`).toBeLessThan(1.5);
      }
    }
  });

  it('inside a segment, espeak leaves no silence of 300 ms or more (every such pause is a labelled one)', () => {
    for (const answer of answers) expect(answer.longestSilenceInSegmentsMs, answer.id).toBeLessThan(300);
  });
});
