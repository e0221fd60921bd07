import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCompletionStatus } from '../../../shared/schemas/sessions.js';
import type { Session } from '../../entities/index.js';
import { addJobs } from '../../jobs/add-jobs.js';
import { completeInvite } from './queries.js';
import { chargeSession } from './session-billing.js';
import { stopClock } from './session-clock.js';
import { generateTranscriptJob } from './session-jobs.js';

/**
 * Ends a session (its row locked by the caller, inside the caller's transaction): completed,
 * timed out or abandoned. In the same transaction: the clock stops, a completed interview
 * consumes its invite, the minutes are billed, and the transcript job is enqueued (which starts
 * the transcript → insights → interview.completed chain), so a crash can lose none of it.
 */
export async function finishSession(tx: EntityManager, session: Session, completionStatus: TCompletionStatus, now: Date): Promise<void> {
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
