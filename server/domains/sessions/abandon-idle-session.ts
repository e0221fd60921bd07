import { LockMode } from '@mikro-orm/core';
import type { Deps } from '../common/deps.js';
import type { Config } from '../../config.js';
import { Session } from '../../entities/index.js';
import { addJobs } from '../../jobs/add-jobs.js';
import { abandonSession } from './finish-session.js';
import { abandonIdleJob } from './session-jobs.js';

/**
 * The `session__abandon_idle` job: a session in progress (or waiting for consent, which holds
 * credits too) without a heartbeat or an answer for SESSION_ABANDON_AFTER seconds is
 * abandoned; a paused one after SESSION_PAUSED_ABANDON_AFTER (a day by default), so no session
 * holds credits for ever. Activity since: the job adds itself again for the new deadline.
 *
 * No caller: the job names a session, whose row says its organization; `now` is for tests.
 */
export async function abandonIdleSession(
  { em, services }: Pick<Deps, 'em'> & { services: { config: Pick<Config, 'sessionAbandonAfterSeconds' | 'sessionPausedAbandonAfterSeconds'> } },
  input: { sessionId: string; now?: Date },
): Promise<'abandoned' | 'rescheduled' | 'nothing'> {
  const { sessionId, now = new Date() } = input;
  const { config } = services;
  return em.transactional(async (tx) => {
    const session = await tx.findOne(Session, sessionId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!session || (session.status !== 'in_progress' && session.status !== 'created' && session.status !== 'paused')) return 'nothing';
    const idleSeconds = session.status === 'paused' ? config.sessionPausedAbandonAfterSeconds : config.sessionAbandonAfterSeconds;
    const deadline = new Date(session.lastActivityAt.getTime() + idleSeconds * 1000);
    if (deadline > now) {
      await addJobs(tx, [abandonIdleJob(session.id, deadline)]);
      return 'rescheduled';
    }
    await abandonSession(tx, session, 'idle', now);
    return 'abandoned';
  });
}
