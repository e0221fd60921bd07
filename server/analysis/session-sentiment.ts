import type { TSentiment } from '../../shared/schemas/transcripts.js';

/** Words beyond this count no more: one long answer must not drown the rest of the interview. */
const MAX_WEIGHT_WORDS = 40;

/**
 * A session's mean score this close to 0 is neutral: the trained classifiers' and the other
 * languages' band for one utterance (other-languages.ts), so a session leaning by a hair is not
 * called positive or negative.
 */
export const SESSION_NEUTRAL_BAND = 0.05;

/** The label a session's score carries: one rule, so a label never sits beside a score that says otherwise. */
export function sessionLabelOf(score: number): TSentiment {
  if (score >= SESSION_NEUTRAL_BAND) return 'positive';
  if (score <= -SESSION_NEUTRAL_BAND) return 'negative';
  return 'neutral';
}

/**
 * The session's sentiment from its participant's utterances, each weighted by its length in words
 * (so "yes" and "four" weigh little against a paragraph): the weighted mean of their scores, and
 * the label of that mean (`sessionLabelOf`). The label once came from the utterances' majority
 * label while the score was the mean, and the two could disagree ("negative (0.01)": answers
 * labelled negative whose scores, weighed together, came to almost nothing); now both say one thing. Each
 * utterance's own label still counts through its score (a researcher's override sets the score
 * of its label). Null when the participant said nothing.
 */
export function sessionSentiment(
  utterances: { speaker: string; text: string; sentiment: TSentiment; score: number }[],
): { overall: TSentiment; score: number } | null {
  let weighted = 0;
  let weights = 0;
  for (const utterance of utterances) {
    if (utterance.speaker !== 'participant') continue;
    const words = Math.min(MAX_WEIGHT_WORDS, utterance.text.split(/\s+/).filter(Boolean).length);
    weighted += utterance.score * words;
    weights += words;
  }
  if (weights === 0) return null;
  const score = Math.round((weighted / weights) * 1000) / 1000;
  return { overall: sessionLabelOf(score), score };
}
