import type { TSessionView } from '../../../shared/schemas/sessions.js';
import { Session } from '../../entities/index.js';
import type { Deps } from '../common/deps.js';
import { sessionNotActive } from './load-session.js';
import { sessionViewFor } from './serialize.js';
import { type SessionActor, loadSessionFor } from './session-access.js';

/**
 * Keeps an unfinished session from being abandoned as idle: one conditional update of
 * `lastActivityAt` (the idle watch reads it when it runs; no job is touched). Finished: 409.
 */
export async function heartbeatSession({ em }: Pick<Deps, 'em'>, actor: SessionActor, input: { sessionId: string }): Promise<TSessionView> {
  const session = await loadSessionFor(em, actor, input.sessionId);
  const now = new Date();
  const updated = await em.nativeUpdate(
    Session,
    { id: session.id, status: { $in: ['created', 'in_progress', 'paused'] } },
    { lastActivityAt: now, updatedAt: now },
  );
  if (updated === 0) throw sessionNotActive(session, 'kept alive');
  session.lastActivityAt = now;
  session.updatedAt = now;
  return sessionViewFor(em, actor, session, now);
}
