import { LockMode } from '@mikro-orm/core';
import type { TSessionView } from '../../../shared/schemas/sessions.js';
import type { Config } from '../../config.js';
import { addJobs } from '../../jobs/add-jobs.js';
import type { Deps } from '../common/deps.js';
import { sessionNotActive } from './load-session.js';
import { abandonIdleJob } from './session-jobs.js';
import { sessionViewFor } from './serialize.js';
import { type SessionActor, loadSessionFor } from './session-access.js';
import { stopClock } from './session-clock.js';

/** in_progress → paused, with the reason given; the clock stops (pauses are neither interview time nor billed). */
export async function pauseSession(
  { em, services }: Pick<Deps, 'em'> & { services: { config: Pick<Config, 'sessionPausedAbandonAfterSeconds'> } },
  actor: SessionActor,
  input: { sessionId: string; reason?: string | undefined },
): Promise<TSessionView> {
  const { sessionId, reason } = input;
  const { config } = services;
  return em.transactional(async (tx) => {
    const session = await loadSessionFor(tx, actor, sessionId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (session.status !== 'in_progress') throw sessionNotActive(session, 'paused');
    const now = new Date();
    stopClock(session, now);
    session.status = 'paused';
    session.pauseReason = reason ?? null;
    session.lastActivityAt = now;
    await tx.flush();
    // A pause left alone ends too (its credit hold released), after the longer paused limit.
    await addJobs(tx, [abandonIdleJob(session.id, new Date(now.getTime() + config.sessionPausedAbandonAfterSeconds * 1000))]);
    return sessionViewFor(tx, actor, session, now);
  });
}
