import type { TSentiment } from '../../shared/schemas/transcripts.js';

/** Words beyond this count no more: one long answer must not drown the rest of the interview. */
const MAX_WEIGHT_WORDS = 40;

/**
 * The session's sentiment from its participant's utterances, each weighted by its length in words
 * (so "yes" and "four" weigh little against a paragraph): the label that carries most of that
 * weight (neutral on a tie) and the weighted mean of their scores. The label comes from the
 * utterances' labels, not from the score: the classifier and the LLM label an utterance by their
 * own judgement, which the lexicon's neutral band over a score need not match, and a session of
 * positive answers is positive. Null when the participant said nothing.
 */
export function sessionSentiment(utterances: { speaker: string; text: string; sentiment: TSentiment; score: number }[]): { overall: TSentiment; score: number } | null {
  const weightOf: Record<TSentiment, number> = { negative: 0, neutral: 0, positive: 0 };
  let weighted = 0;
  let weights = 0;
  for (const utterance of utterances) {
    if (utterance.speaker !== 'participant') continue;
    const words = Math.min(MAX_WEIGHT_WORDS, utterance.text.split(/\s+/).filter(Boolean).length);
    weightOf[utterance.sentiment] += words;
    weighted += utterance.score * words;
    weights += words;
  }
  if (weights === 0) return null;
  const most = Math.max(...Object.values(weightOf));
  const leaders = (Object.keys(weightOf) as TSentiment[]).filter((label) => weightOf[label] === most);
  return { overall: leaders.length === 1 ? leaders[0]! : 'neutral', score: Math.round((weighted / weights) * 1000) / 1000 };
}
