import type { TInterviewLanguage } from '../../shared/languages.js';
import type { TSentiment } from '../../shared/schemas/transcripts.js';
import type { Sentence } from './nlp.js';
import { type OtherLanguage, sentimentOf, sentimentTermsOf } from './other-languages.js';
import { analyzeSentences } from './sentiment.js';

/**
 * The built-in sentiment of a participant's utterance, one model per interview language: a
 * multinomial logistic regression over the lexicon method's judgement (English: sentiment.ts;
 * Dutch, German, French, Spanish: nlp.js' lexicons in other-languages.ts; their score and label
 * carry negation, contrast and degree) and the utterance's lemmas or stems and their pairs
 * (negated ones marked). Trained on the labelled sets in tests/fixtures (sentiment-training.ts
 * says which parts; the held-out parts stay unseen for the figures in docs/interviews.md). The lexicon alone
 * misses what product feedback says without words of feeling ("zero tickets since we moved
 * over"); the words learnt from the labelled answers carry much of it. Trained by
 * `npm run train:sentiment` (server/cli/train-sentiment.ts): deterministic, so the models
 * checked in are exactly what training makes of the sets (a test says so).
 */

const SENTIMENT_LABELS = ['negative', 'neutral', 'positive'] as const satisfies readonly TSentiment[];

/** The weights of each feature by name, one per label (negative, neutral, positive). */
export interface SentimentModel {
  version: 3;
  language: TInterviewLanguage;
  /** The L2 penalty training used (chosen by cross-validation on the training set). */
  l2: number;
  weights: Record<string, [number, number, number]>;
}

/** What the classifier reads of an utterance, whatever its language. */
export interface SentimentReading {
  /** Lemmas (English) or stems, in order; those in a negation's scope prefixed `NOT_`. */
  terms: string[];
  /** The lexicon method's judgement of the same utterance. */
  lexicon: { sentiment: TSentiment; score: number };
}

/** An English utterance already read into sentences (wink-nlp's lemmas and negation scope). */
export function englishReading(sentences: Sentence[]): SentimentReading {
  const tokens = sentences.flatMap((sentence) => sentence.tokens).filter((token) => token.type === 'word' || token.type === 'emoji');
  return { terms: tokens.map((token) => `${token.negated ? 'NOT_' : ''}${token.lemma}`), lexicon: analyzeSentences(sentences) };
}

/** A Dutch, German, French or Spanish utterance (nlp.js' stemmers and lexicons). */
export async function otherLanguageReading(language: OtherLanguage, text: string): Promise<SentimentReading> {
  return { terms: sentimentTermsOf(language, text), lexicon: await sentimentOf(language, text) };
}

/** What the model sees of an utterance. Training and classifying must use this same function. */
export function sentimentFeatures(reading: SentimentReading): Map<string, number> {
  const features = new Map<string, number>();
  const { terms, lexicon } = reading;
  for (const term of terms) features.set(`u:${term}`, 1);
  for (let i = 0; i + 1 < terms.length; i++) features.set(`b:${terms[i]}_${terms[i + 1]}`, 1);
  features.set('lex', lexicon.score * 3);
  features.set(`lex_${lexicon.sentiment}`, 1);
  features.set('bias', 1);
  return features;
}

/** One labelled utterance as training sees it: its features, computed once. */
export interface LabelledFeatures {
  features: Map<string, number>;
  label: TSentiment;
}

/** Weights of one feature, one per label in SENTIMENT_LABELS' order. */
type FeatureWeights = [number, number, number];

/** Each label's probability, in SENTIMENT_LABELS' order. */
function probabilities(weightsOf: (name: string) => FeatureWeights | undefined, features: Map<string, number>): FeatureWeights {
  const sums: FeatureWeights = [0, 0, 0];
  for (const [name, value] of features) {
    const weights = weightsOf(name);
    if (!weights) continue;
    for (let label = 0; label < 3; label++) sums[label]! += weights[label]! * value;
  }
  const max = Math.max(...sums);
  const exps = sums.map((sum) => Math.exp(sum - max));
  const total = exps[0]! + exps[1]! + exps[2]!;
  return [exps[0]! / total, exps[1]! / total, exps[2]! / total];
}

/** Sentiment of an utterance as the classifier read it. */
export function classifyReading(model: SentimentModel, reading: SentimentReading): { sentiment: TSentiment; score: number } {
  return classifyFeatures(model, sentimentFeatures(reading));
}

/** The label with the highest probability (the first of SENTIMENT_LABELS on a tie); the score is P(positive) − P(negative), from -1 to 1. */
export function classifyFeatures(model: SentimentModel, features: Map<string, number>): { sentiment: TSentiment; score: number } {
  const p = probabilities((name) => (Object.hasOwn(model.weights, name) ? model.weights[name] : undefined), features);
  let best = 0;
  for (let label = 1; label < 3; label++) if (p[label]! > p[best]!) best = label;
  return { sentiment: SENTIMENT_LABELS[best]!, score: Math.round((p[2] - p[0]) * 1000) / 1000 };
}

/**
 * Stochastic gradient descent on the cross-entropy with an L2 penalty, in a fixed order with a
 * fixed rate and number of passes: the same examples always give the same model.
 */
export function trainSentimentModel(language: TInterviewLanguage, examples: LabelledFeatures[], l2: number): SentimentModel {
  const rate = 0.1;
  const passes = 60;
  const weights = new Map<string, FeatureWeights>();
  for (let pass = 0; pass < passes; pass++) {
    for (const example of examples) {
      const p = probabilities((name) => weights.get(name), example.features);
      const gradients = p.map((probability, label) => probability - (SENTIMENT_LABELS[label] === example.label ? 1 : 0));
      for (const [name, value] of example.features) {
        let feature = weights.get(name);
        if (!feature) weights.set(name, (feature = [0, 0, 0]));
        for (let label = 0; label < 3; label++) feature[label] = feature[label]! - rate * (gradients[label]! * value + l2 * feature[label]!);
      }
    }
  }
  // Features whose weights are all too small to change a decision are left out and the rest
  // rounded: a smaller file, the same answers (an utterance has tens of features, so what is
  // dropped moves a label's sum by hundredths at most).
  const kept: Record<string, FeatureWeights> = {};
  for (const [name, feature] of weights) {
    if (feature.every((weight) => Math.abs(weight) < 1e-3)) continue;
    // `|| 0`: a weight rounded to -0 is written as 0 in JSON, and must be 0 here too.
    kept[name] = feature.map((weight) => Math.round(weight * 1e4) / 1e4 || 0) as FeatureWeights;
  }
  return { version: 3, language, l2, weights: kept };
}
