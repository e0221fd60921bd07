import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSession } from '../../../shared/schemas/sessions.js';
import { loadSession } from './load-session.js';
import { toSessionDto } from './serialize.js';

export async function getSession(em: EntityManager, organizationId: string, sessionId: string): Promise<TSession> {
  return toSessionDto(await loadSession(em, organizationId, sessionId));
}
