import { DEFAULT_RATING_SCALE, isStructuredQuestion, type TQuestion, type TStructuredQuestionType } from '../../../shared/schemas/scripts.js';
import type { TQuestionDistribution } from '../../../shared/schemas/comparisons.js';
import type { TAnswerValue } from '../../../shared/schemas/sessions.js';

export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export function share(count: number, total: number): number | null {
  return total > 0 ? round(count / total, 4) : null;
}

/** How many sessions of a segment gave each value (null: unreadable) to one question. */
export type ValueCounts = { value: TAnswerValue; count: number }[];

/** The values a question's answers are counted under, in the order a chart shows them. */
function expectedValues(question: TQuestion): (string | number | boolean)[] {
  if (question.type === 'yes_no') return [true, false];
  if (question.type === 'multiple_choice') return question.options ?? [];
  const scale = question.scale ?? DEFAULT_RATING_SCALE;
  return Array.from({ length: scale.max - scale.min + 1 }, (_, i) => scale.min + i);
}

/** A parsed option matches its option whatever the case: the script's wording is what is shown. */
function keyOf(value: string | number | boolean): string {
  return typeof value === 'string' ? `s:${value.toLowerCase()}` : `${typeof value}:${String(value)}`;
}

/**
 * One question's answers as a distribution: every expected value (zeros included), then any
 * other value seen (an option an older script version had, a rating off the current scale),
 * most frequent first. Shares are of the readable answers.
 */
export function distributionOf(question: TQuestion & { type: TStructuredQuestionType }, values: ValueCounts): TQuestionDistribution {
  const counts = new Map<string, { value: string | number | boolean; count: number }>();
  for (const value of expectedValues(question)) counts.set(keyOf(value), { value, count: 0 });
  const expected = counts.size;
  let unreadable = 0;
  for (const { value, count } of values) {
    if (value === null) {
      unreadable += count;
      continue;
    }
    const entry = counts.get(keyOf(value)) ?? { value, count: 0 };
    entry.count += count;
    counts.set(keyOf(value), entry);
  }
  const ordered = [...counts.values()];
  const list = [...ordered.slice(0, expected), ...ordered.slice(expected).sort((a, b) => b.count - a.count)];
  const answered = list.reduce((sum, entry) => sum + entry.count, 0);

  const scale = question.type === 'rating' ? { min: (question.scale ?? DEFAULT_RATING_SCALE).min, max: (question.scale ?? DEFAULT_RATING_SCALE).max } : null;
  let mean: number | null = null;
  let nps: TQuestionDistribution['nps'] = null;
  if (question.type === 'rating') {
    const numeric = list.filter((entry): entry is { value: number; count: number } => typeof entry.value === 'number');
    const total = numeric.reduce((sum, entry) => sum + entry.count, 0);
    mean = total > 0 ? round(numeric.reduce((sum, entry) => sum + entry.value * entry.count, 0) / total, 2) : null;
    if (scale?.min === 0 && scale.max === 10) {
      const tally = (test: (value: number) => boolean) => numeric.filter((entry) => test(entry.value)).reduce((sum, entry) => sum + entry.count, 0);
      const promoters = tally((value) => value >= 9 && value <= 10);
      const passives = tally((value) => value >= 7 && value < 9);
      const detractors = tally((value) => value >= 0 && value < 7);
      const rated = promoters + passives + detractors;
      nps = { promoters, passives, detractors, score: rated > 0 ? round(((promoters - detractors) / rated) * 100, 1) : 0 };
    }
  }
  return {
    questionId: question.id,
    text: question.text,
    type: question.type,
    scale,
    answered,
    unreadable,
    counts: list.map((entry) => ({ value: entry.value, count: entry.count, share: share(entry.count, answered) })),
    mean,
    nps,
  };
}

/**
 * Every question of the script versions (open ones too), newest version first: its questions in
 * its order, then those only older versions had, each with the newest version's wording and type.
 */
export function scriptQuestions(versions: { version: number; questions: TQuestion[] }[]): TQuestion[] {
  const merged = new Map<string, TQuestion>();
  for (const { questions } of [...versions].sort((a, b) => b.version - a.version)) {
    for (const question of [...questions].sort((a, b) => a.order - b.order)) if (!merged.has(question.id)) merged.set(question.id, question);
  }
  return [...merged.values()];
}

/**
 * The structured questions of the script versions a segment's sessions followed, newest version
 * first: its questions in its order, then those only older versions had. A choice question takes
 * the newest wording and the options of every version (newest first), so older answers still land
 * on an option.
 */
export function structuredQuestions(versions: { version: number; questions: TQuestion[] }[]): (TQuestion & { type: TStructuredQuestionType })[] {
  const merged = new Map<string, TQuestion & { type: TStructuredQuestionType }>();
  for (const { questions } of [...versions].sort((a, b) => b.version - a.version)) {
    for (const question of [...questions].sort((a, b) => a.order - b.order)) {
      if (!isStructuredQuestion(question)) continue;
      const known = merged.get(question.id);
      if (!known) {
        merged.set(question.id, { ...question, type: question.type, ...(question.options ? { options: [...question.options] } : {}) });
      } else if (known.type === 'multiple_choice' && question.options) {
        const seen = new Set((known.options ?? []).map((option) => option.toLowerCase()));
        known.options = [...(known.options ?? []), ...question.options.filter((option) => !seen.has(option.toLowerCase()))];
      }
    }
  }
  return [...merged.values()];
}
