import type { EntityManager } from '@mikro-orm/postgresql';
import { addJobs } from '../../jobs/add-jobs.js';
import { announceCompletionJob, generateInsightsJob } from './session-jobs.js';

// The steps after a session finishes, each a job that adds the next in its own transaction:
// transcript → insights → interview.completed. Their real bodies belong to the transcript and
// webhook issues; until then each step records that it ran, so the chain, its order and its
// retries are in place and tested.

type Step = 'transcript_generated_at' | 'insights_generated_at' | 'completion_announced_at';

async function recordStep(em: EntityManager, sessionId: string, step: Step, then: (tx: EntityManager) => Promise<void>): Promise<boolean> {
  return em.transactional(async (tx) => {
    // Once per session: a retried job finds the step done and does not add the next one twice.
    const rows = await tx.execute<{ id: string }[]>(
      `update sessions set ${step} = now(), updated_at = now() where id = ? and ${step} is null and status in ('completed', 'abandoned') returning id`,
      [sessionId],
    );
    if (rows.length === 0) return false;
    await then(tx);
    return true;
  });
}

/** `session__generate_transcript`: then the insights. */
export function generateTranscript(em: EntityManager, sessionId: string): Promise<boolean> {
  return recordStep(em, sessionId, 'transcript_generated_at', (tx) => addJobs(tx, [generateInsightsJob(sessionId)]));
}

/** `session__generate_insights`: then the `interview.completed` announcement. */
export function generateInsights(em: EntityManager, sessionId: string): Promise<boolean> {
  return recordStep(em, sessionId, 'insights_generated_at', (tx) => addJobs(tx, [announceCompletionJob(sessionId)]));
}

/** `session__announce_completion`: the last step (webhook deliveries fan out from here). */
export function announceCompletion(em: EntityManager, sessionId: string): Promise<boolean> {
  return recordStep(em, sessionId, 'completion_announced_at', async () => undefined);
}
