import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCompletionStatus } from '../../../shared/schemas/sessions.js';
import type { SessionBilling } from '../../entities/session.js';
import { type CompletedFacts, externalIdOf, type SessionFacts } from '../webhooks/index.js';
import { sessionEventFacts } from './queries.js';
import { sessionRecordings } from './session-recordings.js';

/*
 * The facts a session's events carry, read here rather than in webhooks: webhooks stores and
 * delivers whatever facts it is given and knows nothing of sessions (the layering: webhooks below sessions).
 */

type SessionFactsRow = NonNullable<Awaited<ReturnType<typeof sessionEventFacts.first>>>;

async function sessionFactsRow(em: EntityManager, sessionId: string): Promise<SessionFactsRow> {
  const row = await sessionEventFacts.first(em, { sessionId });
  // Callers hold the session (just claimed or locked): an event without its facts must not commit.
  if (!row) throw new Error(`session ${sessionId} not found for its event`);
  return row;
}

function sessionFactsOf(row: SessionFactsRow): SessionFacts {
  return {
    sessionId: row.session_id,
    projectId: row.project_id,
    scriptId: row.script_id,
    campaignId: row.campaign_id,
    campaignName: row.campaign_name,
    participant: { email: row.participant_email, name: row.participant_name, externalId: externalIdOf(row.metadata as Record<string, unknown>) },
    locale: row.language,
  };
}

/**
 * What every event of a session says of it. `project_id` is the campaign's project, else the
 * script's; `external_id` is the invite metadata's `external_id` (or `externalId`), the usual way
 * customers carry their own participant id.
 */
export async function loadSessionFacts(em: EntityManager, sessionId: string): Promise<SessionFacts> {
  return sessionFactsOf(await sessionFactsRow(em, sessionId));
}

/** An `interview.completed`'s facts: the session's, its length, answers, billing and recording. */
export async function loadCompletedFacts(em: EntityManager, sessionId: string): Promise<CompletedFacts> {
  const row = await sessionFactsRow(em, sessionId);
  const recordings = await sessionRecordings(em, [sessionId]);
  return {
    ...sessionFactsOf(row),
    durationSeconds: row.duration_seconds,
    questionsAnswered: row.questions_answered,
    questionsTotal: row.total_questions,
    completionStatus: (row.completion_status as TCompletionStatus | null) ?? 'completed',
    billing: row.billing as SessionBilling | null,
    recordingFileId: recordings.get(sessionId)?.fileId ?? null,
  };
}
