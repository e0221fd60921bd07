import { LockMode } from '@mikro-orm/core';
import { Session } from '../../entities/index.js';
import { addJobs } from '../../jobs/add-jobs.js';
import type { Deps } from '../common/deps.js';
import { finishSession } from './finish-session.js';
import { activeSecondsAt } from './session-clock.js';
import { timeOutJob } from './session-jobs.js';

/**
 * The `session__time_out` job: a session in progress whose `maxDuration` of time in progress is
 * used up is completed as `timed_out`. Paused: nothing (resuming re-arms the job); not yet due
 * (it was paused meanwhile): the job adds itself again for the new moment.
 *
 * No caller: the job names a session, whose row says its organization; `now` is for tests.
 */
export async function timeOutSession({ em }: Pick<Deps, 'em'>, input: { sessionId: string; now?: Date }): Promise<'timed_out' | 'rescheduled' | 'nothing'> {
  const { sessionId, now = new Date() } = input;
  return em.transactional(async (tx) => {
    const session = await tx.findOne(Session, sessionId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!session || session.status !== 'in_progress' || !session.maxDurationSeconds) return 'nothing';
    const left = session.maxDurationSeconds - activeSecondsAt(session, now);
    if (left > 0) {
      await addJobs(tx, [timeOutJob(session.id, new Date(now.getTime() + left * 1000))]);
      return 'rescheduled';
    }
    await finishSession(tx, session, 'timed_out', now);
    return 'timed_out';
  });
}
