import { describe, expect, it } from 'vitest';
import { loadProbingSet, PROBING_LANGUAGES, probeItem, probingFigures, probingTable } from '../helpers/probing-eval.js';

/**
 * The built-in prober on the blind labelled set (tests/fixtures/probing.json; the criterion is in
 * tests/helpers/probing-eval.ts). The floors sit a little below what was measured, so a
 * regression fails; the held-out figures are what the rules never saw, reported as measured
 * (the aim, 80% picked up, is not met on every held-out language: see docs/interviews.md).
 */
const set = loadProbingSet();
const rows = probingFigures(set.map(probeItem));
const row = (split: string, language: string) => rows.find((candidate) => candidate.split === split && candidate.language === language)!;

/** [picks up an acceptable phrase, no probe on a closed answer, at most one probe on a closed answer], as shares. */
const FLOORS: Record<'dev' | 'heldout', Record<(typeof PROBING_LANGUAGES)[number], [number, number, number]>> = {
  dev: { en: [0.95, 0.85, 1], nl: [0.95, 0.85, 1], de: [0.9, 0.85, 1], fr: [0.95, 0.85, 1], es: [0.95, 0.85, 1] },
  heldout: { en: [0.75, 0.5, 0.85], nl: [0.65, 0.65, 1], de: [0.5, 0.65, 1], fr: [0.6, 0.95, 1], es: [0.8, 0.5, 0.85] },
};

describe('the probing set', () => {
  it('has both splits in the five languages, each with answers that open something and answers that do not', () => {
    for (const { split, language, opening, closed } of rows) {
      expect(opening, `${split} ${language}`).toBeGreaterThanOrEqual(15);
      expect(closed, `${split} ${language}`).toBeGreaterThanOrEqual(5);
    }
    expect(set.filter((item) => item.opens).every((item) => item.pickUp.length > 0 && item.pickUp.every((phrase) => item.answer.includes(phrase)))).toBe(true);
  });

  it('picks up an acceptable phrase and leaves closed answers alone, per language and split', () => {
    console.log(`\n${probingTable(rows)}\n`);
    for (const split of ['dev', 'heldout'] as const) {
      for (const language of PROBING_LANGUAGES) {
        const { opening, pickedUp, closed, noProbe, atMostOne } = row(split, language);
        const [pickUpFloor, noProbeFloor, atMostOneFloor] = FLOORS[split][language];
        expect(pickedUp / opening, `${split} ${language} picked up`).toBeGreaterThanOrEqual(pickUpFloor);
        expect(noProbe / closed, `${split} ${language} no probe`).toBeGreaterThanOrEqual(noProbeFloor);
        expect(atMostOne / closed, `${split} ${language} at most one probe`).toBeGreaterThanOrEqual(atMostOneFloor);
      }
    }
  });
});
