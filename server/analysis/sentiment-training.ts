import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TSentiment } from '../../shared/schemas/transcripts.js';
import { readSentences } from './nlp.js';
import { classifyFeatures, type LabelledFeatures, type SentimentModel, sentimentFeatures, trainSentimentModel } from './sentiment-classifier.js';

/**
 * What training the sentiment classifier needs besides the model itself: the labelled set and
 * the choice of its L2 penalty (used by `npm run train:sentiment` and the test that checks the
 * model checked in).
 */

const SENTIMENT_FIXTURE = path.resolve(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'sentiment.json');
const L2_CANDIDATES = [0.003, 0.01, 0.03, 0.1];
const FOLDS = 5;

/** The parts training reads; `final` and `fresh` are for measuring only. */
const TRAINING_PARTS = new Set(['dev', 'holdout', 'test']);

/** The labelled set read into features once: `training` from the training parts, `final` never trained on. */
export async function loadLabelledSet(): Promise<{ training: LabelledFeatures[]; final: LabelledFeatures[] }> {
  const { items } = JSON.parse(await readFile(SENTIMENT_FIXTURE, 'utf8')) as { items: { text: string; label: TSentiment; set: string }[] };
  const read = (part: typeof items) => part.map((item) => ({ features: sentimentFeatures(readSentences(item.text)), label: item.label }));
  return { training: read(items.filter((item) => TRAINING_PARTS.has(item.set))), final: read(items.filter((item) => item.set === 'final')) };
}

export function accuracy(model: SentimentModel, examples: LabelledFeatures[]): number {
  return examples.filter((example) => classifyFeatures(model, example.features).sentiment === example.label).length / examples.length;
}

/**
 * Cross-validated accuracy of each candidate penalty, and the one chosen by the one-standard-error
 * rule (Breiman et al.): the strongest penalty whose accuracy is within one standard error of the
 * best, the simplest model the data cannot tell apart from the best one.
 */
export function chooseL2(training: LabelledFeatures[]): { l2: number; crossValidated: number; all: { l2: number; accuracy: number }[] } {
  const all = L2_CANDIDATES.map((l2) => {
    let correct = 0;
    for (let fold = 0; fold < FOLDS; fold++) {
      const model = trainSentimentModel(training.filter((_, index) => index % FOLDS !== fold), l2);
      const held = training.filter((_, index) => index % FOLDS === fold);
      correct += accuracy(model, held) * held.length;
    }
    return { l2, accuracy: correct / training.length };
  });
  const best = Math.max(...all.map((candidate) => candidate.accuracy));
  const standardError = Math.sqrt((best * (1 - best)) / training.length);
  const chosen = all.filter((candidate) => candidate.accuracy >= best - standardError).reduce((a, b) => (b.l2 > a.l2 ? b : a));
  return { l2: chosen.l2, crossValidated: chosen.accuracy, all };
}
