import type { TAuditActor } from '../../../shared/schemas/redactions.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import { defineQuery } from '../../db/query.js';
import { isoTimestamp, rawSql, sql } from '../../db/sql.js';

/** An utterance's sentiment as the analysis made it and as a researcher set it. */
const UTTERANCE_SENTIMENT_COLUMNS = rawSql(
  `id, sentiment, sentiment_override, ${isoTimestamp('sentiment_overridden_at')} as sentiment_overridden_at, sentiment_overridden_by`,
);

const utteranceSentimentColumns = {
  id: 'text',
  sentiment: 'text | null',
  sentiment_override: 'text | null',
  sentiment_overridden_at: 'text | null',
  sentiment_overridden_by: 'jsonb | null',
} as const;

/** The session's overridden utterances, in the order they were said. */
export const overriddenUtterances = defineQuery({
  columns: utteranceSentimentColumns,
  statement: ({ organizationId, sessionId }: { organizationId: string; sessionId: string }) =>
    sql`select ${UTTERANCE_SENTIMENT_COLUMNS} from session_utterances
           where session_id = ${sessionId} and organization_id = ${organizationId} and sentiment_override is not null order by seq`,
  example: { organizationId: 'org_example', sessionId: 'ses_example' },
});

/** One utterance of the session, locked for the change. */
export const utteranceSentimentForUpdate = defineQuery({
  columns: { speaker: 'text', text: 'text | null', ...utteranceSentimentColumns },
  statement: ({ organizationId, sessionId, utteranceId }: { organizationId: string; sessionId: string; utteranceId: string }) =>
    sql`select speaker, text, ${UTTERANCE_SENTIMENT_COLUMNS} from session_utterances
           where id = ${utteranceId} and session_id = ${sessionId} and organization_id = ${organizationId} for update`,
  example: { organizationId: 'org_example', sessionId: 'ses_example', utteranceId: 'utt_example' },
});

/** The session's stored sentiment, locked for the change. */
export const sessionSentimentForUpdate = defineQuery({
  columns: { sentiment: 'text | null', sentiment_score: 'double precision | null' },
  statement: ({ sessionId }: { sessionId: string }) => sql`select sentiment, sentiment_score from sessions where id = ${sessionId} for update`,
  example: { sessionId: 'ses_example' },
});

/** Sets (or, with null, clears) an utterance's override, with when and by whom. */
export const setUtteranceOverride = defineQuery({
  columns: utteranceSentimentColumns,
  statement: ({ utteranceId, sentiment, actor }: { utteranceId: string; sentiment: TSentiment | null; actor: TAuditActor }) =>
    sentiment === null
      ? sql`update session_utterances set sentiment_override = null, sentiment_overridden_at = null, sentiment_overridden_by = null where id = ${utteranceId} returning ${UTTERANCE_SENTIMENT_COLUMNS}`
      : sql`update session_utterances set sentiment_override = ${sentiment}, sentiment_overridden_at = now(), sentiment_overridden_by = ${JSON.stringify(actor)}::jsonb
               where id = ${utteranceId} returning ${UTTERANCE_SENTIMENT_COLUMNS}`,
  example: { utteranceId: 'utt_example', sentiment: 'positive' as TSentiment | null, actor: { kind: 'api_key', id: 'key_example', name: 'CI' } as TAuditActor },
});

/** The session's participant utterances that have a sentiment, in order: what its overall sentiment is computed from. */
export const participantSentiments = defineQuery({
  columns: { speaker: 'text', text: 'text', sentiment: 'text', sentiment_override: 'text | null', sentiment_score: 'double precision | null' },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`select speaker, text, sentiment, sentiment_override, sentiment_score from session_utterances
         where session_id = ${sessionId} and speaker = 'participant' and text is not null and sentiment is not null order by seq`,
  example: { sessionId: 'ses_example' },
});

/** Stores the session's overall sentiment. */
export const storeSessionSentiment = defineQuery({
  columns: {},
  statement: ({ sessionId, overall }: { sessionId: string; overall: { overall: TSentiment; score: number } | null }) =>
    sql`update sessions set sentiment = ${overall?.overall ?? null}, sentiment_score = ${overall?.score ?? null}, updated_at = now() where id = ${sessionId}`,
  example: { sessionId: 'ses_example', overall: { overall: 'positive', score: 0.5 } as { overall: TSentiment; score: number } | null },
});

/** The built-in summary's sentiment sentence, replaced. */
export const replaceSummarySentence = defineQuery({
  columns: {},
  statement: ({ sessionId, before, after }: { sessionId: string; before: string; after: string }) =>
    sql`update session_insights set summary = replace(summary, ${before}, ${after}) where session_id = ${sessionId} and generated_by = 'builtin'`,
  example: { sessionId: 'ses_example', before: 'Overall positive.', after: 'Overall negative.' },
});
