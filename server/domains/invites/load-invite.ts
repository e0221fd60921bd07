import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Invite } from '../../entities/index.js';
import { AppError, notFound } from '../../errors.js';
import { effectiveInviteStatus } from './serialize.js';
import type { OrganizationScope } from '../common/caller.js';

/** The scope's organization's invite or 404. */
export async function loadInvite(em: EntityManager, scope: OrganizationScope, input: { inviteId: string; lockMode?: LockMode }): Promise<Invite> {
  const { inviteId, ...options } = input;
  const invite = await em.findOne(
    Invite,
    { id: inviteId, organization: scope.organizationId },
    options.lockMode ? { lockMode: options.lockMode, refresh: true } : {},
  );
  if (!invite) throw notFound('invite', inviteId);
  return invite;
}

/**
 * Refuses a change to an invite that is over: expired (INVITE_EXPIRED), cancelled
 * (INVITE_CANCELLED) or, unless `allowStarted`, used (INVITE_ALREADY_USED).
 */
export function assertInviteModifiable(invite: Invite, action: string, options: { allowStarted?: boolean } = {}): void {
  const status = effectiveInviteStatus(invite);
  const details = { inviteId: invite.id, status };
  if (status === 'expired') throw new AppError('INVITE_EXPIRED', `Invite ${invite.id} has expired and cannot be ${action}.`, details);
  if (status === 'cancelled') throw new AppError('INVITE_CANCELLED', `Invite ${invite.id} was cancelled and cannot be ${action}.`, details);
  if (status === 'completed' || (status === 'started' && !options.allowStarted)) {
    throw new AppError('INVITE_ALREADY_USED', `Invite ${invite.id} has been used (${status}) and cannot be ${action}.`, details);
  }
}
