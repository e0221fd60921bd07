import type { TAuditActor } from '../../../shared/schemas/redactions.js';
import type { TUtteranceSentiment } from '../../../shared/schemas/sentiment-overrides.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import { isoTimestamp, rawSql } from '../../db/sql.js';

export interface UtteranceSentimentRow {
  id: string;
  sentiment: TSentiment | null;
  sentiment_override: TSentiment | null;
  sentiment_overridden_at: string | null;
  sentiment_overridden_by: TAuditActor | null;
}

export const UTTERANCE_SENTIMENT_COLUMNS = rawSql(`id, sentiment, sentiment_override, ${isoTimestamp('sentiment_overridden_at')} as sentiment_overridden_at, sentiment_overridden_by`);

export function toUtteranceSentiment(row: UtteranceSentimentRow): TUtteranceSentiment {
  return {
    utteranceId: row.id,
    analyzed: row.sentiment,
    override: row.sentiment_override,
    effective: row.sentiment_override ?? row.sentiment,
    overriddenAt: row.sentiment_overridden_at,
    overriddenBy: row.sentiment_overridden_by,
  };
}
