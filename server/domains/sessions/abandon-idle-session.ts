import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import { Session } from '../../entities/index.js';
import { addJobs } from '../../jobs/add-jobs.js';
import { finishSession } from './finish-session.js';
import { abandonIdleJob } from './session-jobs.js';

/**
 * The `session__abandon_idle` job: a session in progress (or waiting for consent, which holds
 * credits too) without a heartbeat or an answer for SESSION_ABANDON_AFTER seconds is
 * abandoned. Activity since: the job adds itself again for the new deadline. A paused session
 * is left alone (resuming re-arms the watch).
 */
export async function abandonIdleSession(
  em: EntityManager,
  config: Pick<Config, 'sessionAbandonAfterSeconds'>,
  sessionId: string,
  now: Date = new Date(),
): Promise<'abandoned' | 'rescheduled' | 'nothing'> {
  return em.transactional(async (tx) => {
    const session = await tx.findOne(Session, sessionId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!session || (session.status !== 'in_progress' && session.status !== 'created')) return 'nothing';
    const deadline = new Date(session.lastActivityAt.getTime() + config.sessionAbandonAfterSeconds * 1000);
    if (deadline > now) {
      await addJobs(tx, [abandonIdleJob(session.id, deadline)]);
      return 'rescheduled';
    }
    await finishSession(tx, session, 'abandoned', now);
    return 'abandoned';
  });
}
