import type { EntityManager } from '@mikro-orm/postgresql';
import { UNFINISHED_SESSION_STATUSES } from '../../../shared/schemas/sessions.js';
import { Invite, Session } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import type { ParticipantAuth } from '../common/caller.js';

export function invalidInviteToken(message = 'The invite token is invalid or has been revoked.'): AppError {
  return new AppError('INVALID_INVITE_TOKEN', message);
}

/** The participant's invite with its campaign and organization; a cancelled invite's token is revoked (401). */
export async function loadParticipantInvite(em: EntityManager, participant: ParticipantAuth): Promise<Invite> {
  const invite = await em.findOne(Invite, { id: participant.inviteId, organization: participant.organizationId }, { populate: ['campaign', 'organization'] });
  if (!invite || invite.status === 'cancelled') throw invalidInviteToken();
  return invite;
}

/** The invite's session that can still go on (created, in progress or paused), if any: at most one exists. */
export async function findUnfinishedSession(em: EntityManager, inviteId: string): Promise<Session | null> {
  return em.findOne(Session, { invite: inviteId, status: { $in: [...UNFINISHED_SESSION_STATUSES] } }, { refresh: true });
}

/** The invite's newest session, finished or not. */
export async function findLatestSession(em: EntityManager, inviteId: string): Promise<Session | null> {
  return em.findOne(Session, { invite: inviteId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
}
