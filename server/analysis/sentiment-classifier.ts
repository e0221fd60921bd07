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

export const SENTIMENT_LABELS = ['negative', 'neutral', 'positive'] as const satisfies readonly TSentiment[];

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

function scores(model: SentimentModel, features: Map<string, number>): number[] {
  return SENTIMENT_LABELS.map((label) => {
    const weights = model.weights[label];
    let sum = 0;
    for (const [name, value] of features) sum += (weights[name] ?? 0) * value;
    return sum;
  });
}

function softmax(values: number[]): number[] {
  const max = Math.max(...values);
  const exps = values.map((value) => Math.exp(value - max));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

/** Sentiment of one utterance by the model. */
export function classifySentiment(model: SentimentModel, text: string): { sentiment: TSentiment; score: number } {
  return classifySentences(model, readSentences(text));
}

/** The label with the highest probability; the score is P(positive) − P(negative), from -1 to 1. */
export function classifySentences(model: SentimentModel, sentences: Sentence[]): { sentiment: TSentiment; score: number } {
  const probabilities = softmax(scores(model, sentimentFeatures(sentences)));
  const best = probabilities.indexOf(Math.max(...probabilities));
  return { sentiment: SENTIMENT_LABELS[best]!, score: Math.round((probabilities[2]! - probabilities[0]!) * 1000) / 1000 };
}

/**
 * Stochastic gradient descent on the cross-entropy with an L2 penalty, in a fixed order with a
 * fixed rate and number of passes: the same examples always give the same model.
 */
export function trainSentimentModel(examples: { text: string; label: TSentiment }[], l2: number): SentimentModel {
  const rate = 0.1;
  const passes = 60;
  const data = examples.map((example) => ({ features: sentimentFeatures(readSentences(example.text)), label: SENTIMENT_LABELS.indexOf(example.label) }));
  const weights = SENTIMENT_LABELS.map(() => new Map<string, number>());
  const model = (): SentimentModel => ({
    version: 1,
    l2,
    weights: Object.fromEntries(
      SENTIMENT_LABELS.map((label, index) => [
        label,
        // Weights too small to change a decision are left out: a smaller file, the same answers.
        Object.fromEntries([...weights[index]!].filter(([, weight]) => Math.abs(weight) >= 1e-4).map(([name, weight]) => [name, Math.round(weight * 1e6) / 1e6])),
      ]),
    ) as SentimentModel['weights'],
  });
  for (let pass = 0; pass < passes; pass++) {
    for (const { features, label } of data) {
      const probabilities = softmax(
        weights.map((labelWeights) => {
          let sum = 0;
          for (const [name, value] of features) sum += (labelWeights.get(name) ?? 0) * value;
          return sum;
        }),
      );
      for (let index = 0; index < SENTIMENT_LABELS.length; index++) {
        const gradient = probabilities[index]! - (label === index ? 1 : 0);
        const labelWeights = weights[index]!;
        for (const [name, value] of features) {
          const weight = labelWeights.get(name) ?? 0;
          labelWeights.set(name, weight - rate * (gradient * value + l2 * weight));
        }
      }
    }
  }
  return model();
}
