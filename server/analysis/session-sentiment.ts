import type { TSentiment } from '../../shared/schemas/transcripts.js';
import { labelOf } from './sentiment.js';

/** Words beyond this count no more: one long answer must not drown the rest of the interview. */
const MAX_WEIGHT_WORDS = 40;

/**
 * The session's sentiment from its participant's utterances: their scores averaged, each
 * weighted by its length in words (so "yes" and "four" weigh little against a paragraph), and
 * labelled with the same neutral band as an utterance. Null when the participant said nothing.
 */
export function sessionSentiment(utterances: { speaker: string; text: string; score: number }[]): { overall: TSentiment; score: number } | null {
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
  return { overall: labelOf(score), score };
}
