import type { TInvite, TInviteStatus } from '../../../shared/schemas/invites.js';
import type { Invite } from '../../entities/index.js';
import type { LinkOwner } from '../../lib/public-links.js';
import type { AppServices } from '../../services.js';

/** What turning invites into API records needs: the token key and the link builder. */
export type InviteLinkServices = Pick<AppServices, 'inviteTokens' | 'links'>;

/**
 * The status a reader sees: a pending or started invite whose `expiresAt` has passed is expired,
 * whether or not the periodic expiry job has written that yet.
 */
export function effectiveInviteStatus(invite: Pick<Invite, 'status' | 'expiresAt'>, now: Date = new Date()): TInviteStatus {
  if ((invite.status === 'pending' || invite.status === 'started') && invite.expiresAt.getTime() <= now.getTime()) return 'expired';
  return invite.status;
}

/** What a record is made from: an invite entity, a row built for a bulk insert, or a row of a list page. */
export type InviteView = Pick<
  Invite,
  | 'id'
  | 'email'
  | 'name'
  | 'language'
  | 'status'
  | 'emailStatus'
  | 'emailTemplate'
  | 'expiresAt'
  | 'metadata'
  | 'startedAt'
  | 'completedAt'
  | 'cancelledAt'
  | 'emailSentAt'
  | 'createdAt'
  | 'updatedAt'
> & {
  campaign: { id: string };
  shareLink?: { id: string } | null;
};

export function toInviteDto(invite: InviteView, services: InviteLinkServices, owner: LinkOwner, now: Date = new Date()): TInvite {
  const token = services.inviteTokens.tokenFor(invite.id);
  return {
    id: invite.id,
    campaignId: invite.campaign.id,
    shareLinkId: invite.shareLink?.id ?? null,
    token,
    email: invite.email ?? null,
    name: invite.name ?? null,
    language: invite.language ?? null,
    status: effectiveInviteStatus(invite, now),
    inviteUrl: services.links.inviteUrl(owner, token),
    emailStatus: invite.emailStatus,
    emailTemplate: invite.emailTemplate ?? null,
    expiresAt: invite.expiresAt.toISOString(),
    metadata: invite.metadata,
    startedAt: invite.startedAt?.toISOString() ?? null,
    completedAt: invite.completedAt?.toISOString() ?? null,
    cancelledAt: invite.cancelledAt?.toISOString() ?? null,
    emailSentAt: invite.emailSentAt?.toISOString() ?? null,
    createdAt: invite.createdAt.toISOString(),
    updatedAt: invite.updatedAt.toISOString(),
  };
}
