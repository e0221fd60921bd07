/**
 * `npm run train:sentiment`: trains the built-in sentiment classifier on the labelled set
 * (tests/fixtures/sentiment.json, every part but `final`), choosing its L2 penalty by 5-fold
 * cross-validation, and writes server/analysis/sentiment-model.json. Prints the cross-validated
 * accuracy and the accuracy on the `final` set, which training never sees. Run it again after
 * changing sentiment.ts or the labelled set (a test fails until the model is retrained).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { trainSentimentModel } from '../analysis/sentiment-classifier.js';
import { accuracy, chooseL2, loadLabelledSet } from '../analysis/sentiment-training.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SENTIMENT_MODEL = path.join(ROOT, 'server', 'analysis', 'sentiment-model.json');

const { training, final } = await loadLabelledSet();
const chosen = chooseL2(training);
for (const candidate of chosen.all) console.log(`l2 ${candidate.l2}: ${(100 * candidate.accuracy).toFixed(1)}% cross-validated on ${training.length} items`);
const model = trainSentimentModel(training, chosen.l2);
await writeFile(SENTIMENT_MODEL, `${JSON.stringify(model)}\n`);
console.log(`chosen l2 ${chosen.l2}; on the ${final.length} final items, never trained on: ${(100 * accuracy(model, final)).toFixed(1)}%`);
console.log(`written: ${path.relative(ROOT, SENTIMENT_MODEL)}`);
