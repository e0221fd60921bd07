import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assessStructuredAnswer, CONFIRMATION_THRESHOLD } from '../../server/interviewer/answer-parsing.js';
import { percent } from '../helpers/answer-fixtures.js';

/**
 * Multiple choice by meaning on tests/fixtures/answer-meaning.json, written blind by another
 * author (synonyms, paraphrases, positions, "none of those", unclear answers, in five languages;
 * `tests/fixtures/merge-answer-meaning.mjs` joins the author's dev and held-out files). The concept
 * lexicons were tuned on the `dev` items only; the held-out figures are what the rule measured
 * the first time it met them, and the floors sit just below them.
 *
 * An item is right when the value read is the label (null for none_of_these and unclear). A
 * "confident wrong" item has a value other than the label with confidence at or above
 * `CONFIRMATION_THRESHOLD`: it is taken without a confirmation, the one error that reaches results.
 */
interface Item {
  id: string;
  language: string;
  split: 'dev' | 'heldout';
  question: { text: string; options: string[] };
  text: string;
  expected: string | null;
  kind: 'synonym' | 'paraphrase' | 'ordinal' | 'none_of_these' | 'unclear' | 'exact';
}

const { items } = JSON.parse(readFileSync(new URL('../fixtures/answer-meaning.json', import.meta.url), 'utf8')) as { items: Item[] };
const LANGUAGES = ['en', 'nl', 'de', 'fr', 'es'];

interface Tally {
  total: number;
  right: number;
  confidentWrong: number;
  /** none_of_these items read as no option (null: "none of those" read back, or an answer naming something not listed asked again). */
  noneRight: number;
  noneTotal: number;
}

function measure(selected: readonly Item[]): { tally: Tally; misses: string[] } {
  const tally: Tally = { total: 0, right: 0, confidentWrong: 0, noneRight: 0, noneTotal: 0 };
  const misses: string[] = [];
  for (const item of selected) {
    const assessed = assessStructuredAnswer({ type: 'multiple_choice', options: item.question.options }, item.text, item.language);
    tally.total += 1;
    const right = assessed.value === item.expected;
    if (right) tally.right += 1;
    if (!right && assessed.value !== null && (assessed.confidence ?? 0) >= CONFIRMATION_THRESHOLD) tally.confidentWrong += 1;
    if (item.kind === 'none_of_these') {
      tally.noneTotal += 1;
      if (assessed.value === null) tally.noneRight += 1;
    }
    if (!right)
      misses.push(
        `${item.split} ${item.id} [${item.kind}] ${JSON.stringify(item.text)}: expected ${JSON.stringify(item.expected)}, got ${JSON.stringify(assessed.value)} (${assessed.confidence})`,
      );
  }
  return { tally, misses };
}

const row = (label: string, tally: Tally) =>
  `${label.padEnd(12)} ${`${tally.right}/${tally.total}`.padStart(7)} ${percent(tally.right, tally.total).padStart(7)}   confident wrong ${tally.confidentWrong}   none→null ${tally.noneRight}/${tally.noneTotal}`;

function table(split: Item['split']): Record<string, Tally> {
  const result: Record<string, Tally> = {};
  for (const language of [...LANGUAGES, 'all']) {
    result[language] = measure(items.filter((item) => item.split === split && (language === 'all' || item.language === language))).tally;
    console.log(row(`${split} ${language}`, result[language]!));
  }
  return result;
}

/**
 * Floors per split and language: measured, less a little (see docs/interviews.md for the figures).
 * Measured (20 items per language and split): dev en 17, nl 17, de 15, fr 15, es 15 (79/100);
 * held-out en 11, nl 13, de 13, fr 10, es 11 (58/100). The built-in parser before meaning
 * matching: dev 45/100, held-out 56/100.
 */
const FLOORS: Record<Item['split'], Record<string, number>> = {
  dev: { all: 0.77, en: 0.8, nl: 0.8, de: 0.7, fr: 0.7, es: 0.7 },
  heldout: { all: 0.56, en: 0.5, nl: 0.6, de: 0.6, fr: 0.45, es: 0.5 },
};
/** Most confident-wrong items allowed per split, on all languages (measured: dev 4, held-out 6; the parser before meaning matching: 7 and 2). */
const MAX_CONFIDENT_WRONG: Record<Item['split'], number> = { dev: 4, heldout: 6 };
/** none_of_these items read as no option (measured: dev 10/10, held-out 5/9). */
const MIN_NONE_RIGHT: Record<Item['split'], number> = { dev: 10, heldout: 5 };

describe('multiple choice by meaning on the blind labelled set', () => {
  it('has both splits in five languages', () => {
    for (const split of ['dev', 'heldout'] as const) {
      for (const language of LANGUAGES)
        expect(items.filter((item) => item.split === split && item.language === language).length, `${split} ${language}`).toBeGreaterThanOrEqual(15);
    }
  });

  for (const split of ['dev', 'heldout'] as const) {
    it(`${split}: accuracy per language at or above the floors, few confident wrong values, none of those read as no option`, () => {
      const tallies = table(split);
      if (split === 'dev') console.log(measure(items.filter((item) => item.split === 'dev')).misses.join('\n'));
      for (const [language, floor] of Object.entries(FLOORS[split]))
        expect(tallies[language]!.right / tallies[language]!.total, `${split} ${language}`).toBeGreaterThanOrEqual(floor);
      expect(tallies.all!.confidentWrong).toBeLessThanOrEqual(MAX_CONFIDENT_WRONG[split]);
      expect(tallies.all!.noneRight).toBeGreaterThanOrEqual(MIN_NONE_RIGHT[split]);
    });
  }
});
