/**
 * `npm run train:sentiment [-- <language>…]`: trains the built-in sentiment classifier of every
 * interview language (or of those named) on its labelled sets (sentiment-training.ts says
 * which), choosing the L2 penalty by 5-fold cross-validation on the training parts, and writes
 * server/analysis/sentiment-models/<language>.json, and the cross-validation it ran (with a
 * digest of what it read) to sentiment-models/cross-validation.json, which the tests check the
 * penalty against. Prints the cross-validated accuracy and the accuracy on the held-out parts,
 * which training never sees. Run it again after changing how an utterance is read
 * (sentiment-classifier.ts, sentiment.ts, other-languages.ts) or a labelled set: a test fails
 * until the models are retrained.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { INTERVIEW_LANGUAGES, type TInterviewLanguage } from '../../shared/languages.js';
import { trainSentimentModel } from '../analysis/sentiment-classifier.js';
import { accuracy, chooseL2, type CrossValidationRecord, crossValidationDigest, loadLabelledSet } from '../analysis/sentiment-training.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const MODELS = path.join(ROOT, 'server', 'analysis', 'sentiment-models');

const named = process.argv.slice(2);
const unknown = named.filter((language) => !(INTERVIEW_LANGUAGES as readonly string[]).includes(language));
if (unknown.length > 0) {
  console.error(`not an interview language: ${unknown.join(', ')} (one of ${INTERVIEW_LANGUAGES.join(', ')})`);
  process.exit(2);
}
const languages = named.length > 0 ? (named as TInterviewLanguage[]) : INTERVIEW_LANGUAGES;

const percent = (share: number) => `${(100 * share).toFixed(1)}%`;

const CROSS_VALIDATION = path.join(MODELS, 'cross-validation.json');
// Languages not trained this time keep their record.
const crossValidation = JSON.parse(await readFile(CROSS_VALIDATION, 'utf8').catch(() => '{}')) as Partial<Record<TInterviewLanguage, CrossValidationRecord>>;

for (const language of languages) {
  const set = await loadLabelledSet(language);
  const chosen = chooseL2(set);
  console.log(`${language}: training on ${set.trainingParts.map((part) => `${part.name} (${part.size})`).join(' + ')} = ${set.training.length} items`);
  for (const candidate of chosen.all) console.log(`  l2 ${candidate.l2}: ${percent(candidate.accuracy)} cross-validated`);
  const model = trainSentimentModel(language, set.training, chosen.l2);
  const file = path.join(MODELS, `${language}.json`);
  await writeFile(file, `${JSON.stringify(model)}\n`);
  console.log(`  chosen l2 ${chosen.l2}; written ${path.relative(ROOT, file)}`);
  crossValidation[language] = { digest: crossValidationDigest(set, model), all: chosen.all, l2: chosen.l2 };
  await writeFile(CROSS_VALIDATION, `${JSON.stringify(crossValidation, null, 2)}\n`);
  for (const part of set.heldOut)
    console.log(`  held out, never trained on: ${part.name}: ${percent(accuracy(model, part.examples))} of ${part.examples.length}`);
}
