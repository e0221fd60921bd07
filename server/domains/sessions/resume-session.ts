import { LockMode } from '@mikro-orm/core';
import type { TSessionView } from '../../../shared/schemas/sessions.js';
import type { Config } from '../../config.js';
import { addJobs } from '../../jobs/add-jobs.js';
import type { Deps } from '../common/deps.js';
import { watchJobs } from './interview-turns.js';
import { sessionNotActive } from './load-session.js';
import { sessionViewFor } from './serialize.js';
import { type SessionActor, loadSessionFor } from './session-access.js';
import { startClock } from './session-clock.js';

/** paused → in_progress: the clock runs again, and the timeout and idle watches are re-armed from now. */
export async function resumeSession(
  { em, services }: Pick<Deps, 'em'> & { services: { config: Pick<Config, 'sessionAbandonAfterSeconds'> } },
  actor: SessionActor,
  input: { sessionId: string },
): Promise<TSessionView> {
  const { sessionId } = input;
  const { config } = services;
  return em.transactional(async (tx) => {
    const session = await loadSessionFor(tx, actor, sessionId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (session.status !== 'paused') throw sessionNotActive(session, 'resumed');
    const now = new Date();
    session.status = 'in_progress';
    startClock(session, now);
    session.lastActivityAt = now;
    await tx.flush();
    await addJobs(tx, watchJobs(session, config, now));
    return sessionViewFor(tx, actor, session, now);
  });
}
