import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assessStructuredAnswer } from '../../server/interviewer/answer-parsing.js';
import { percent } from '../helpers/answer-fixtures.js';

/**
 * The confirmation rule (`assessStructuredAnswer`: sure / unsure / unknown, and the value) on the
 * labelled set tests/fixtures/answer-confirmation.json, written blind by another author. The rule
 * was tuned on the 'dev' items only; the floors below are what it measured on 'heldout', rounded
 * down (see docs/interviews.md for the figures). Value accuracy counts an item right when the value the
 * rule reads equals the label (null for unknown); certainty accuracy when the class equals it.
 */
interface Item {
  id: string;
  language: string;
  split: 'dev' | 'heldout';
  question: { type: 'rating' | 'yes_no' | 'multiple_choice'; scale?: { min: number; max: number }; options?: string[] };
  text: string;
  expected: { value: number | boolean | string | null; certainty: 'sure' | 'unsure' | 'unknown' };
}

const { items } = JSON.parse(readFileSync(new URL('../fixtures/answer-confirmation.json', import.meta.url), 'utf8')) as { items: Item[] };
const LANGUAGES = ['en', 'nl', 'de', 'fr', 'es'];

interface Tally {
  total: number;
  value: number;
  certainty: number;
  /** A value taken without confirmation that is not the label: the one error that reaches the results. */
  wrongSure: number;
}

function measure(selected: Item[]): { tally: Tally; misses: string[] } {
  const tally: Tally = { total: 0, value: 0, certainty: 0, wrongSure: 0 };
  const misses: string[] = [];
  for (const item of selected) {
    const actual = assessStructuredAnswer(item.question, item.text, item.language);
    tally.total += 1;
    const valueRight = actual.value === item.expected.value;
    const certaintyRight = actual.certainty === item.expected.certainty;
    if (valueRight) tally.value += 1;
    if (certaintyRight) tally.certainty += 1;
    if (actual.certainty === 'sure' && !valueRight) tally.wrongSure += 1;
    if (!valueRight || !certaintyRight) {
      misses.push(
        `${item.id} ${JSON.stringify(item.text)}: expected ${JSON.stringify(item.expected)}, got ${JSON.stringify({ value: actual.value, certainty: actual.certainty, reasons: actual.reasons })}`,
      );
    }
  }
  return { tally, misses };
}

const line = (label: string, tally: Tally) =>
  `${label}: value ${tally.value}/${tally.total} (${percent(tally.value, tally.total)}), certainty ${tally.certainty}/${tally.total} (${percent(tally.certainty, tally.total)}), wrong sure values ${tally.wrongSure}`;

/** Held-out floors, per language and overall: measured, rounded down to whole percents. */
const HELDOUT_FLOORS: Record<string, { value: number; certainty: number }> = {
  // Measured on 124 held-out items: value 107 (86.3%), certainty 106 (85.5%), 1 wrong sure value.
  all: { value: 0.86, certainty: 0.85 },
  en: { value: 0.84, certainty: 0.84 },
  nl: { value: 0.83, certainty: 0.83 },
  de: { value: 0.92, certainty: 0.88 },
  fr: { value: 0.88, certainty: 0.88 },
  es: { value: 0.84, certainty: 0.84 },
};

/** Values taken without confirmation that are not the label, on all held-out items (measured: 1). */
const HELDOUT_MAX_WRONG_SURE = 1;

describe('the confirmation rule on the labelled set', () => {
  it('dev: figures per language (the items the rule was tuned on; misses listed)', () => {
    const { tally, misses } = measure(items.filter((item) => item.split === 'dev'));
    for (const language of LANGUAGES)
      console.log(line(`dev ${language}`, measure(items.filter((item) => item.split === 'dev' && item.language === language)).tally));
    console.log(line('dev all', tally));
    if (misses.length > 0) console.log(misses.join('\n'));
    expect(tally.total).toBeGreaterThan(150);
  });

  it('heldout: value and certainty accuracy at or above the measured floors, per language and overall', () => {
    const heldout = items.filter((item) => item.split === 'heldout');
    const overall = measure(heldout).tally;
    console.log(line('heldout all', overall));
    for (const language of ['all', ...LANGUAGES]) {
      const tally = language === 'all' ? overall : measure(heldout.filter((item) => item.language === language)).tally;
      if (language !== 'all') console.log(line(`heldout ${language}`, tally));
      expect(tally.value / tally.total, `${language} value`).toBeGreaterThanOrEqual(HELDOUT_FLOORS[language]!.value);
      expect(tally.certainty / tally.total, `${language} certainty`).toBeGreaterThanOrEqual(HELDOUT_FLOORS[language]!.certainty);
    }
    expect(overall.wrongSure).toBeLessThanOrEqual(HELDOUT_MAX_WRONG_SURE);
  });
});
