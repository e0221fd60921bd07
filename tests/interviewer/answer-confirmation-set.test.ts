import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * Checks the shape of the labelled confirmation set (tests/fixtures/answer-confirmation.json), not
 * any rule: unique ids, the five languages, dev/heldout about 60/40, and labels that are possible
 * answers to their question.
 */
const LANGUAGES = ['en', 'nl', 'de', 'fr', 'es'] as const;

const ZConfirmationItem = z.strictObject({
  id: z.string().min(1),
  language: z.enum(LANGUAGES),
  split: z.enum(['dev', 'heldout']),
  question: z.strictObject({
    type: z.enum(['rating', 'yes_no', 'multiple_choice']),
    scale: z.strictObject({ min: z.number().int(), max: z.number().int() }).optional(),
    options: z.array(z.string().min(1)).min(2).optional(),
  }),
  text: z.string().min(1),
  expected: z.strictObject({
    value: z.union([z.number(), z.string(), z.boolean(), z.null()]),
    certainty: z.enum(['sure', 'unsure', 'unknown']),
  }),
});
const ZConfirmationSet = z.strictObject({ about: z.string().min(100), items: z.array(ZConfirmationItem) });

const set = ZConfirmationSet.parse(JSON.parse(readFileSync(new URL('../fixtures/answer-confirmation.json', import.meta.url), 'utf8')));

describe('the answer confirmation set', () => {
  it('has unique ids and about 60 items in each of the five languages', () => {
    expect(new Set(set.items.map((item) => item.id)).size).toBe(set.items.length);
    for (const language of LANGUAGES) {
      const count = set.items.filter((item) => item.language === language).length;
      expect(count, language).toBeGreaterThanOrEqual(55);
      expect(count, language).toBeLessThanOrEqual(70);
    }
  });

  it('splits each language about 60/40 into dev and heldout, with every certainty and question type in both', () => {
    for (const language of LANGUAGES) {
      const items = set.items.filter((item) => item.language === language);
      const heldout = items.filter((item) => item.split === 'heldout');
      expect(heldout.length / items.length, language).toBeGreaterThanOrEqual(0.35);
      expect(heldout.length / items.length, language).toBeLessThanOrEqual(0.45);
      for (const split of ['dev', 'heldout']) {
        const part = items.filter((item) => item.split === split);
        expect(new Set(part.map((item) => item.expected.certainty)), `${language} ${split}`).toEqual(new Set(['sure', 'unsure', 'unknown']));
        expect(new Set(part.map((item) => item.question.type)), `${language} ${split}`).toEqual(new Set(['rating', 'yes_no', 'multiple_choice']));
      }
    }
  });

  it('labels are possible answers to their question, and null exactly when the certainty is unknown', () => {
    for (const item of set.items) {
      const { question, expected } = item;
      expect(expected.value === null, item.id).toBe(expected.certainty === 'unknown');
      expect(question.scale !== undefined, `${item.id} scale`).toBe(question.type === 'rating');
      expect(question.options !== undefined, `${item.id} options`).toBe(question.type === 'multiple_choice');
      if (expected.value === null) continue;
      if (question.type === 'rating') {
        expect(Number.isInteger(expected.value), item.id).toBe(true);
        expect(expected.value, item.id).toBeGreaterThanOrEqual(question.scale!.min);
        expect(expected.value, item.id).toBeLessThanOrEqual(question.scale!.max);
      }
      if (question.type === 'yes_no') expect(typeof expected.value, item.id).toBe('boolean');
      if (question.type === 'multiple_choice') expect(question.options, item.id).toContain(expected.value);
    }
  });
});
