import type { TSentiment } from '../../../shared/schemas/transcripts.js';

/** A session's overall sentiment as results show it: null until the transcript job has stored both its label and its score. */
export function storedSentiment(overall: TSentiment | null | undefined, score: number | null | undefined): { overall: TSentiment; score: number } | null {
  return overall && score !== null && score !== undefined ? { overall, score } : null;
}
