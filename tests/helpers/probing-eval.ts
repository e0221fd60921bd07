import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { planProbe, SAME_WORDS } from '../../server/interviewer/probing/plan-probe.js';
import type { ProbePlan } from '../../server/interviewer/probing/probe-plan.js';
import { tokenOverlap } from '../../server/interviewer/probing/words.js';

/**
 * The probing measurement on the labelled set (tests/fixtures/probing.json, written blind by
 * another author; the rules were tuned on `dev` only, `heldout` is the measurement).
 *
 * - On an answer that opens something (`opens: true`), the first probe **picks up** an acceptable
 *   phrase when its `pickedUp` words and one of the item's `pickUp` phrases share at least half of
 *   the shorter of the two (`tokenOverlap` ≥ 0.5: lowercased, diacritics folded, punctuation
 *   ignored, each word counted once). The prober quotes at most 14 words (anchors.ts
 *   MAX_SPAN_WORDS), so a long quote cannot cover a phrase by quoting the whole answer.
 * - On an answer that leaves nothing open (`opens: false`), the interview is simulated: a first
 *   probe (probesAsked 0), and if one was asked a second with the first recorded (its text in
 *   askedOnQuestion, its words in pickedUpBefore). At most one probe may be asked; the share
 *   with no probe at all is reported beside it.
 */

export const PROBING_LANGUAGES = ['en', 'nl', 'de', 'fr', 'es'] as const;
export const PROBING_SPLITS = ['dev', 'heldout'] as const;

const ZProbingItem = z.strictObject({
  id: z.string().min(1),
  language: z.enum(PROBING_LANGUAGES),
  split: z.enum(PROBING_SPLITS),
  question: z.string().min(1),
  answer: z.string().min(1),
  opens: z.boolean(),
  pickUp: z.array(z.string().min(1)),
  reason: z.enum(['problem', 'event', 'workaround', 'feeling', 'comparison', 'number']).nullable(),
});
export type ProbingItem = z.infer<typeof ZProbingItem>;

export function loadProbingSet(): ProbingItem[] {
  const raw = JSON.parse(readFileSync(new URL('../fixtures/probing.json', import.meta.url), 'utf8')) as unknown;
  return z.strictObject({ about: z.string().min(1), items: z.array(ZProbingItem) }).parse(raw).items;
}

export interface ProbedItem {
  item: ProbingItem;
  first: ProbePlan | null;
  second: ProbePlan | null;
  /** `opens: true`: the first probe picked up an acceptable phrase. */
  pickedUp: boolean;
}

export function probeItem(item: ProbingItem): ProbedItem {
  const question = { id: item.id, text: item.question, type: 'open' as const };
  const first = planProbe({ answer: item.answer, language: item.language, question, probesAsked: 0, askedOnQuestion: [item.question], pickedUpBefore: [] });
  const second = first
    ? planProbe({
        answer: item.answer,
        language: item.language,
        question,
        probesAsked: 1,
        askedOnQuestion: [item.question, first.text],
        pickedUpBefore: first.ledger.pickedUp ? [first.ledger.pickedUp] : [],
      })
    : null;
  const words = first?.ledger.pickedUp ?? null;
  const pickedUp = item.opens && words !== null && item.pickUp.some((phrase) => tokenOverlap(phrase, words) >= SAME_WORDS);
  return { item, first, second, pickedUp };
}

export interface ProbingFigures {
  language: string;
  split: string;
  opening: number;
  pickedUp: number;
  closed: number;
  /** `opens: false` items with no probe at all, and with at most one. */
  noProbe: number;
  atMostOne: number;
}

export function probingFigures(probed: readonly ProbedItem[]): ProbingFigures[] {
  const rows: ProbingFigures[] = [];
  for (const split of PROBING_SPLITS) {
    for (const language of PROBING_LANGUAGES) {
      const part = probed.filter(({ item }) => item.split === split && item.language === language);
      const opening = part.filter(({ item }) => item.opens);
      const closed = part.filter(({ item }) => !item.opens);
      rows.push({
        language,
        split,
        opening: opening.length,
        pickedUp: opening.filter((probe) => probe.pickedUp).length,
        closed: closed.length,
        noProbe: closed.filter(({ first }) => first === null).length,
        atMostOne: closed.filter(({ second }) => second === null).length,
      });
    }
  }
  return rows;
}

const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(0)}%`);

export function probingTable(rows: readonly ProbingFigures[]): string {
  const lines = [
    '| split | language | picks up an acceptable phrase | no probe on a closed answer | at most one probe on a closed answer |',
    '|---|---|---|---|---|',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.split} | ${row.language} | ${percent(row.pickedUp, row.opening)} (${row.pickedUp}/${row.opening}) | ${percent(row.noProbe, row.closed)} (${row.noProbe}/${row.closed}) | ${percent(row.atMostOne, row.closed)} (${row.atMostOne}/${row.closed}) |`,
    );
  }
  return lines.join('\n');
}
