import type { TSentiment } from '../../shared/schemas/transcripts.js';
import { readSentences, type Sentence } from './nlp.js';
import { analyzeSentences } from './sentiment.js';

/**
 * The built-in sentiment of a participant's utterance: a multinomial logistic regression over
 * the lexicon method's judgement (sentiment.ts: its score and label, which carry negation,
 * contrast and degree) and the utterance's lemmas and lemma pairs (negated ones marked), trained
 * on the labelled set in tests/fixtures/sentiment.json (every part but `final`, which stays
 * unseen for the README's figure). The lexicon alone misses what product feedback says without
 * words of feeling ("zero tickets since we moved over"); the words learnt from the labelled
 * answers carry much of it. Trained by `npm run train:sentiment` (server/cli/train-sentiment.ts):
 * deterministic, so the model checked in is exactly what training makes of the set (a test says so).
 */

const SENTIMENT_LABELS = ['negative', 'neutral', 'positive'] as const satisfies readonly TSentiment[];

/** Weights per label, by feature name. */
export interface SentimentModel {
  version: 1;
  /** The L2 penalty training used (chosen by cross-validation on the training set). */
  l2: number;
  weights: Record<TSentiment, Record<string, number>>;
}

/** What the model sees of an utterance. Training and classifying must use this same function. */
export function sentimentFeatures(sentences: Sentence[]): Map<string, number> {
  const features = new Map<string, number>();
  const tokens = sentences.flatMap((sentence) => sentence.tokens).filter((token) => token.type === 'word' || token.type === 'emoji');
  const lemmas = tokens.map((token) => `${token.negated ? 'NOT_' : ''}${token.lemma}`);
  for (const lemma of lemmas) features.set(`u:${lemma}`, 1);
  for (let i = 0; i + 1 < lemmas.length; i++) features.set(`b:${lemmas[i]}_${lemmas[i + 1]}`, 1);
  const lexicon = analyzeSentences(sentences);
  features.set('lex', lexicon.score * 3);
  features.set(`lex_${lexicon.sentiment}`, 1);
  features.set('bias', 1);
  return features;
}

/** The model's weights, or training's weights so far. */
type Weights = SentimentModel['weights'];

/** One labelled utterance as training sees it: its features, computed once. */
export interface LabelledFeatures {
  features: Map<string, number>;
  label: TSentiment;
}

function probabilities(weights: Weights, features: Map<string, number>): Record<TSentiment, number> {
  const sums = SENTIMENT_LABELS.map((label) => {
    let sum = 0;
    for (const [name, value] of features) sum += (weights[label][name] ?? 0) * value;
    return sum;
  });
  const max = Math.max(...sums);
  const exps = sums.map((sum) => Math.exp(sum - max));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return Object.fromEntries(SENTIMENT_LABELS.map((label, index) => [label, exps[index]! / total])) as Record<TSentiment, number>;
}

/** Sentiment of one utterance by the model. */
export function classifySentiment(model: SentimentModel, text: string): { sentiment: TSentiment; score: number } {
  return classifySentences(model, readSentences(text));
}

/** Sentiment of an utterance already read into sentences. */
export function classifySentences(model: SentimentModel, sentences: Sentence[]): { sentiment: TSentiment; score: number } {
  return classifyFeatures(model, sentimentFeatures(sentences));
}

/** The label with the highest probability (the first of SENTIMENT_LABELS on a tie); the score is P(positive) − P(negative), from -1 to 1. */
export function classifyFeatures(model: SentimentModel, features: Map<string, number>): { sentiment: TSentiment; score: number } {
  const p = probabilities(model.weights, features);
  const sentiment = SENTIMENT_LABELS.reduce((best, label) => (p[label] > p[best] ? label : best));
  return { sentiment, score: Math.round((p.positive - p.negative) * 1000) / 1000 };
}

/**
 * Stochastic gradient descent on the cross-entropy with an L2 penalty, in a fixed order with a
 * fixed rate and number of passes: the same examples always give the same model.
 */
export function trainSentimentModel(examples: LabelledFeatures[], l2: number): SentimentModel {
  const rate = 0.1;
  const passes = 60;
  const weights = Object.fromEntries(SENTIMENT_LABELS.map((label) => [label, {}])) as Weights;
  for (let pass = 0; pass < passes; pass++) {
    for (const example of examples) {
      const p = probabilities(weights, example.features);
      for (const label of SENTIMENT_LABELS) {
        const gradient = p[label] - (label === example.label ? 1 : 0);
        const labelWeights = weights[label];
        for (const [name, value] of example.features) {
          const weight = labelWeights[name] ?? 0;
          labelWeights[name] = weight - rate * (gradient * value + l2 * weight);
        }
      }
    }
  }
  // Weights too small to change a decision are left out: a smaller file, the same answers.
  const kept = (labelWeights: Record<string, number>) =>
    Object.fromEntries(Object.entries(labelWeights).filter(([, weight]) => Math.abs(weight) >= 1e-4).map(([name, weight]) => [name, Math.round(weight * 1e6) / 1e6]));
  return { version: 1, l2, weights: Object.fromEntries(SENTIMENT_LABELS.map((label) => [label, kept(weights[label])])) as Weights };
}
