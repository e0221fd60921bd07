import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ZQuestion } from '../../shared/schemas/scripts.js';

/** A labelled set of answers (tests/fixtures/answer-parsing*.json): structured answers with the value a coder records, open answers judged vague or not. */
export const ZAnswerFixtures = z.object({
  structured: z.array(
    z.object({
      id: z.string(),
      question: ZQuestion.pick({ type: true, options: true, scale: true }),
      text: z.string(),
      expected: z.union([z.number(), z.boolean(), z.string(), z.null()]),
    }),
  ),
  open: z.array(z.object({ id: z.string(), text: z.string(), expectedVague: z.boolean() })),
});

export function readAnswerFixtures(file: string): z.infer<typeof ZAnswerFixtures> {
  return ZAnswerFixtures.parse(JSON.parse(readFileSync(new URL(`../fixtures/${file}`, import.meta.url), 'utf8')));
}

export const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
