import type { TAuditActor } from '../../../shared/schemas/redactions.js';
import type { TUtteranceSentiment } from '../../../shared/schemas/sentiment-overrides.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import type { RowOf } from '../../db/query.js';
import type { overriddenUtterances } from './queries.js';

export type UtteranceSentimentRow = RowOf<(typeof overriddenUtterances)['columns']>;

export function toUtteranceSentiment(row: UtteranceSentimentRow): TUtteranceSentiment {
  const sentiment = row.sentiment as TSentiment | null;
  const override = row.sentiment_override as TSentiment | null;
  return {
    utteranceId: row.id,
    analyzed: sentiment,
    override,
    effective: override ?? sentiment,
    overriddenAt: row.sentiment_overridden_at,
    overriddenBy: row.sentiment_overridden_by as TAuditActor | null,
  };
}
