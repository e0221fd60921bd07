import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSession } from '../../../shared/schemas/sessions.js';
import { loadSession } from './load-session.js';
import { toSessionDto } from './serialize.js';
import { turnTakingSummary } from './turn-timing.js';

export async function getSession(em: EntityManager, organizationId: string, sessionId: string): Promise<TSession> {
  const session = await loadSession(em, organizationId, sessionId);
  return toSessionDto(session, await turnTakingSummary(em, organizationId, session.id));
}
