import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSentimentOverrideList } from '../../../shared/schemas/sentiment-overrides.js';
import { queryRows, sql } from '../../db/sql.js';
import { readAuditEntries } from '../redactions/audit-log.js';
import { loadSession } from '../sessions/index.js';
import { toUtteranceSentiment, type UtteranceSentimentRow, UTTERANCE_SENTIMENT_COLUMNS } from './utterance-sentiment.js';

/** `sentimentOverrides.list`: the session's overrides now, and every change made to them (404 for another organization's session). */
export async function listSentimentOverrides(em: EntityManager, organizationId: string, sessionId: string): Promise<TSentimentOverrideList> {
  const session = await loadSession(em, { organizationId }, { sessionId });
  const [rows, history] = await Promise.all([
    queryRows<UtteranceSentimentRow>(
      em,
      sql`select ${UTTERANCE_SENTIMENT_COLUMNS} from session_utterances
           where session_id = ${session.id} and organization_id = ${organizationId} and sentiment_override is not null order by seq`,
    ),
    readAuditEntries(em, organizationId, session.id, ['sentiment_override', 'sentiment_override_cleared']),
  ]);
  return { overrides: rows.map(toUtteranceSentiment), history };
}
