import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCompletionStatus } from '../../../shared/schemas/sessions.js';
import type { Session } from '../../entities/index.js';
import type { TAbandonReason } from '../../../shared/schemas/webhook-payloads.js';
import { addJobs } from '../../jobs/add-jobs.js';
import { systemCaller } from '../common/caller.js';
import { publishEvent } from '../webhooks/index.js';
import { completeInvite } from './queries.js';
import { chargeSession } from './session-billing.js';
import { loadSessionFacts } from './session-event-facts.js';
import { stopClock } from './session-clock.js';
import { generateTranscriptJob } from './session-jobs.js';

/**
 * Ends a session (its row locked by the caller, inside the caller's transaction): completed,
 * timed out or abandoned. In the same transaction: the clock stops, a completed interview
 * consumes its invite, the minutes are billed, and the transcript job is enqueued (which starts
 * the transcript → insights → interview.completed chain), so a crash can lose none of it.
 */
export async function finishSession(tx: EntityManager, session: Session, completionStatus: Exclude<TCompletionStatus, 'abandoned'>, now: Date): Promise<void> {
  await endSession(tx, session, completionStatus, now);
}

/**
 * Ends a session unfinished (`abandoned`), as finishSession does, and publishes its
 * `session.abandoned` event with the reason in the same transaction (a preview's excepted: no
 * receiver hears of a researcher's try). Its `interview.completed` follows with the chain.
 */
export async function abandonSession(tx: EntityManager, session: Session, reason: TAbandonReason, now: Date): Promise<void> {
  await endSession(tx, session, 'abandoned', now);
  if (session.preview) return;
  const facts = await loadSessionFacts(tx, session.id);
  await publishEvent({ em: tx }, systemCaller(session.organization.id), {
    type: 'session.abandoned',
    sessionId: session.id,
    facts: { ...facts, reason, questionsAnswered: session.questionsAnswered, questionsTotal: session.totalQuestions },
    occurredAt: now,
  });
}

async function endSession(tx: EntityManager, session: Session, completionStatus: TCompletionStatus, now: Date): Promise<void> {
  stopClock(session, now);
  session.status = completionStatus === 'abandoned' ? 'abandoned' : 'completed';
  session.completionStatus = completionStatus;
  session.completedAt = now;
  session.pending = null;
  session.pendingUtteranceId = null;
  if (session.status === 'completed') {
    // Lock order session → invite → organization, as everywhere a session is finished.
    await completeInvite.rows(tx, { inviteId: session.invite.id, completedAt: now });
  }
  // A preview ("Preview as participant") held nothing and is billed nothing: no charge, no usage.
  if (!session.preview) session.billing = await chargeSession(tx, session, now);
  await tx.flush();
  await addJobs(tx, [generateTranscriptJob(session.id)]);
}
