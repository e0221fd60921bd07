import type { CustomerAuth, ParticipantAuth } from '../common/caller.js';
import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Session } from '../../entities/index.js';
import { notFound } from '../../errors.js';

import { loadSession } from './load-session.js';

/** Who may act on a session's lifecycle: an API key or member of its organization, or its own invite's token. */
export type SessionActor = Pick<CustomerAuth, 'kind' | 'organizationId'> | ParticipantAuth;

/** The session, when the actor may act on it; 404 otherwise (a token acting on another session included). */
export async function loadSessionFor(em: EntityManager, actor: SessionActor, sessionId: string, options: { lockMode?: LockMode } = {}): Promise<Session> {
  const session = await loadSession(em, actor, { sessionId }, options);
  if (actor.kind === 'participant' && session.invite.id !== actor.inviteId) throw notFound('session', sessionId);
  return session;
}
