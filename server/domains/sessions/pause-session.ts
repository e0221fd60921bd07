import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSession } from '../../../shared/schemas/sessions.js';
import { sessionNotActive } from './load-session.js';
import { toSessionDto } from './serialize.js';
import { type SessionActor, loadSessionFor } from './session-access.js';
import { stopClock } from './session-clock.js';

/** in_progress → paused, with the reason given; the clock stops (pauses are neither interview time nor billed). */
export async function pauseSession(em: EntityManager, actor: SessionActor, sessionId: string, reason: string | undefined): Promise<TSession> {
  return em.transactional(async (tx) => {
    const session = await loadSessionFor(tx, actor, sessionId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (session.status !== 'in_progress') throw sessionNotActive(session, 'paused');
    const now = new Date();
    stopClock(session, now);
    session.status = 'paused';
    session.pauseReason = reason ?? null;
    session.lastActivityAt = now;
    await tx.flush();
    return toSessionDto(session, now);
  });
}
