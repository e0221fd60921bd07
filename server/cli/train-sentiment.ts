/**
 * `npm run train:sentiment`: trains the built-in sentiment classifier on the labelled set
 * (tests/fixtures/sentiment.json, every part but `final`), choosing its L2 penalty by 5-fold
 * cross-validation, and writes server/analysis/sentiment-model.json. Prints the cross-validated
 * accuracy and the accuracy on the `final` set, which training never sees. Run it again after
 * changing sentiment.ts or the labelled set (a test fails until the model is retrained).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TSentiment } from '../../shared/schemas/transcripts.js';
import { classifySentiment, type SentimentModel, trainSentimentModel } from '../analysis/sentiment-classifier.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const SENTIMENT_FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'sentiment.json');
export const SENTIMENT_MODEL = path.join(ROOT, 'server', 'analysis', 'sentiment-model.json');
const L2_CANDIDATES = [0.003, 0.01, 0.03, 0.1];
const FOLDS = 5;

interface Item {
  text: string;
  label: TSentiment;
  set: string;
}

export async function loadLabelledSet(): Promise<{ training: Item[]; final: Item[] }> {
  const { items } = JSON.parse(await readFile(SENTIMENT_FIXTURE, 'utf8')) as { items: Item[] };
  return { training: items.filter((item) => item.set !== 'final'), final: items.filter((item) => item.set === 'final') };
}

function accuracy(model: SentimentModel, items: Item[]): number {
  return items.filter((item) => classifySentiment(model, item.text).sentiment === item.label).length / items.length;
}

/**
 * Cross-validated accuracy of each candidate penalty, and the one chosen by the one-standard-error
 * rule (Breiman et al.): the strongest penalty whose accuracy is within one standard error of the
 * best, the simplest model the data cannot tell apart from the best one.
 */
export function chooseL2(training: Item[]): { l2: number; crossValidated: number; all: { l2: number; accuracy: number }[] } {
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

async function main(): Promise<void> {
  const { training, final } = await loadLabelledSet();
  const chosen = chooseL2(training);
  for (const candidate of chosen.all) console.log(`l2 ${candidate.l2}: ${(100 * candidate.accuracy).toFixed(1)}% cross-validated on ${training.length} items`);
  const model = trainSentimentModel(training, chosen.l2);
  await writeFile(SENTIMENT_MODEL, `${JSON.stringify(model)}\n`);
  console.log(`chosen l2 ${chosen.l2}; on the ${final.length} final items, never trained on: ${(100 * accuracy(model, final)).toFixed(1)}%`);
  console.log(`written: ${path.relative(ROOT, SENTIMENT_MODEL)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
