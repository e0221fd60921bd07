import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { INTERVIEW_LANGUAGES, type TInterviewLanguage } from '../../shared/languages.js';
import { SENTIMENTS } from '../../shared/schemas/transcripts.js';
import { readSentences } from './nlp.js';
import {
  classifyFeatures,
  englishReading,
  type LabelledFeatures,
  otherLanguageReading,
  type SentimentModel,
  type SentimentReading,
  sentimentFeatures,
  trainSentimentModel,
} from './sentiment-classifier.js';

/**
 * What training the sentiment classifiers needs besides the model itself: the labelled sets and
 * the choice of the L2 penalty (used by `npm run train:sentiment` and the tests that check the
 * models checked in). Per language, from tests/fixtures:
 *
 * - `sentiment/<lang>.train.json` and `sentiment/<lang>.heldout.json`: 200 and 100 answers
 *   written and labelled blind (by an author who saw neither the methods nor the other sets);
 *   `sentiment/<lang>.b.train.json` and `.b.heldout.json` the same again by a second author;
 *   `sentiment/<lang>.c.train.json` and `.d.train.json`, 300 answers each by a third and a fourth;
 *   for English, German and Spanish also `.e.train.json` and `.f.train.json` by a fifth and a sixth.
 *   The train parts are trained on; the held-out parts never are: they give the figures in docs/interviews.md.
 * - English also trains on the older set `sentiment.json` except its part `final` (150 answers,
 *   a second held-out figure); Dutch, German, French and Spanish on their older 60-answer sets
 *   `sentiment-<lang>.json` (their lexicon's neutral band was chosen on half of each, so they
 *   are no clean held-out any more).
 */

const FIXTURES = path.resolve(import.meta.dirname, '..', '..', 'tests', 'fixtures');
const L2_CANDIDATES = [0.003, 0.01, 0.03, 0.1];
const FOLDS = 5;

/** The parts of the older English set training reads; `final` is for measuring only. */
const ENGLISH_TRAINING_PARTS = new Set(['dev', 'holdout', 'test', 'fresh']);

const ZLabelledItem = z.object({ id: z.string(), text: z.string(), label: z.enum(SENTIMENTS) });
/** A blind set's file: `{language, split, guide, items}`. */
const ZBlindSet = z.object({ language: z.enum(INTERVIEW_LANGUAGES), split: z.enum(['train', 'heldout']), items: z.array(ZLabelledItem) });
/**
 * The blind sets' authors, as their file names tell them apart (`nl.train.json`, `nl.b.train.json`):
 * A and B wrote a training and a held-out part each, C and D (300 answers each, written later to
 * give the models more to learn from) training parts only, as E and F did for three languages.
 */
const BLIND_AUTHORS: Record<'train' | 'heldout', string[]> = { train: ['', '.b', '.c', '.d'], heldout: ['', '.b'] };
/** English, German and Spanish, the weakest after C and D, have two more authors' training sets (E and F, 300 each). */
const MORE_TRAINING_AUTHORS: Partial<Record<TInterviewLanguage, string[]>> = { en: ['.e', '.f'], de: ['.e', '.f'], es: ['.e', '.f'] };
const ZOlderEnglishSet = z.object({ items: z.array(ZLabelledItem.extend({ set: z.string() })) });
const ZOlderLanguageSet = z.object({ items: z.array(ZLabelledItem) });

type LabelledItem = z.infer<typeof ZLabelledItem>;

/** One labelled set of a language, read into features once. */
export interface LabelledPart {
  /** Where it comes from, as the test and the training report name it ("sentiment/nl.heldout.json"). */
  name: string;
  examples: LabelledFeatures[];
}

export interface LabelledSet {
  language: TInterviewLanguage;
  /** Every part training reads, in a fixed order. */
  training: LabelledFeatures[];
  trainingParts: { name: string; size: number }[];
  /** The parts training never reads. */
  heldOut: LabelledPart[];
}

async function readJson<T>(schema: z.ZodType<T>, file: string): Promise<T> {
  return schema.parse(JSON.parse(await readFile(path.join(FIXTURES, file), 'utf8')));
}

async function blindSets(language: TInterviewLanguage, split: 'train' | 'heldout'): Promise<{ name: string; items: LabelledItem[] }[]> {
  return Promise.all(
    [...BLIND_AUTHORS[split], ...(split === 'train' ? (MORE_TRAINING_AUTHORS[language] ?? []) : [])].map(async (author) => {
      const name = `sentiment/${language}${author}.${split}.json`;
      const set = await readJson(ZBlindSet, name);
      if (set.language !== language || set.split !== split) throw new Error(`${name} says it is ${set.language} ${set.split}`);
      return { name, items: set.items };
    }),
  );
}

/** How the classifier of `language` reads a text. */
export async function readingOf(language: TInterviewLanguage, text: string): Promise<SentimentReading> {
  return language === 'en' ? englishReading(readSentences(text)) : otherLanguageReading(language, text);
}

async function featuresOf(language: TInterviewLanguage, items: LabelledItem[]): Promise<LabelledFeatures[]> {
  const examples: LabelledFeatures[] = [];
  for (const item of items) examples.push({ features: sentimentFeatures(await readingOf(language, item.text)), label: item.label });
  return examples;
}

/** The labelled sets of one language, read into features: what training reads, and what it never sees. */
export async function loadLabelledSet(language: TInterviewLanguage): Promise<LabelledSet> {
  const parts: { name: string; items: LabelledItem[] }[] = [];
  const heldOut: { name: string; items: LabelledItem[] }[] = [];
  if (language === 'en') {
    const older = (await readJson(ZOlderEnglishSet, 'sentiment.json')).items;
    parts.push({ name: 'sentiment.json (dev, holdout, test, fresh)', items: older.filter((item) => ENGLISH_TRAINING_PARTS.has(item.set)) });
    heldOut.push({ name: 'sentiment.json (final)', items: older.filter((item) => item.set === 'final') });
  } else {
    parts.push({ name: `sentiment-${language}.json`, items: (await readJson(ZOlderLanguageSet, `sentiment-${language}.json`)).items });
  }
  parts.push(...(await blindSets(language, 'train')));
  heldOut.push(...(await blindSets(language, 'heldout')));
  return {
    language,
    training: await featuresOf(
      language,
      parts.flatMap((part) => part.items),
    ),
    trainingParts: parts.map((part) => ({ name: part.name, size: part.items.length })),
    heldOut: await Promise.all(heldOut.map(async (part) => ({ name: part.name, examples: await featuresOf(language, part.items) }))),
  };
}

export function accuracy(model: SentimentModel, examples: LabelledFeatures[]): number {
  return examples.filter((example) => classifyFeatures(model, example.features).sentiment === example.label).length / examples.length;
}

/**
 * Cross-validated accuracy of each candidate penalty on the training parts only, and the one
 * chosen by the one-standard-error rule (Breiman et al.): the strongest penalty whose accuracy
 * is within one standard error of the best, the simplest model the data cannot tell apart from
 * the best one.
 */
export function chooseL2(set: Pick<LabelledSet, 'language' | 'training'>): { l2: number; crossValidated: number; all: { l2: number; accuracy: number }[] } {
  const { language, training } = set;
  const all = L2_CANDIDATES.map((l2) => {
    let correct = 0;
    for (let fold = 0; fold < FOLDS; fold++) {
      const model = trainSentimentModel(
        language,
        training.filter((_, index) => index % FOLDS !== fold),
        l2,
      );
      const held = training.filter((_, index) => index % FOLDS === fold);
      correct += accuracy(model, held) * held.length;
    }
    return { l2, accuracy: correct / training.length };
  });
  const chosen = oneStandardErrorChoice(all, training.length);
  return { l2: chosen.l2, crossValidated: chosen.accuracy, all };
}

/** Of cross-validated candidates over `size` examples, the strongest penalty within one standard error of the best. */
export function oneStandardErrorChoice(all: { l2: number; accuracy: number }[], size: number): { l2: number; accuracy: number } {
  const best = Math.max(...all.map((candidate) => candidate.accuracy));
  const standardError = Math.sqrt((best * (1 - best)) / size);
  return all.filter((candidate) => candidate.accuracy >= best - standardError).reduce((a, b) => (b.l2 > a.l2 ? b : a));
}

/**
 * What `npm run train:sentiment` records of each language's cross-validation
 * (sentiment-models/cross-validation.json), so the test that checks the penalty need not run the
 * twenty trainings again (about 40 s of the test suite): the candidates' accuracies, the penalty
 * chosen, and the digest of what the run read.
 */
export interface CrossValidationRecord {
  /** `crossValidationDigest` of the training parts and the model the run wrote. */
  digest: string;
  all: { l2: number; accuracy: number }[];
  l2: number;
}

/**
 * A digest of everything a cross-validation run depends on: the training examples in their
 * order (features and labels), the candidates and folds, and the model trained on the whole set
 * with the penalty chosen (which stands for the trainer: a change to it that matters changes the
 * model). The same digest means the recorded run is a run on exactly this.
 */
export function crossValidationDigest(set: Pick<LabelledSet, 'language' | 'training'>, model: SentimentModel): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ language: set.language, candidates: L2_CANDIDATES, folds: FOLDS }));
  for (const example of set.training) hash.update(`\n${example.label}${JSON.stringify([...example.features])}`);
  hash.update(`\n${JSON.stringify(model)}`);
  return hash.digest('hex');
}
