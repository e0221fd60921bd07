import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TInvite } from '../../../shared/schemas/invites.js';
import { assertInviteModifiable, loadInvite } from './load-invite.js';
import { type InviteLinkServices, toInviteDto } from './serialize.js';
import { loadLinkOwner } from '../organizations/load-link-owner.js';

/**
 * Revokes the token: a cancelled invite's link no longer opens anything. A queued email is not
 * sent (the send job checks the status). Pending or started invites can be cancelled; cancelling
 * a cancelled one changes nothing.
 */
export async function cancelInvite(em: EntityManager, services: InviteLinkServices, organizationId: string, inviteId: string): Promise<TInvite> {
  return em.transactional(async (tx) => {
    const invite = await loadInvite(tx, organizationId, inviteId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (invite.status !== 'cancelled') {
      assertInviteModifiable(invite, 'cancelled', { allowStarted: true });
      invite.status = 'cancelled';
      invite.cancelledAt = new Date();
      if (invite.emailStatus === 'queued') invite.emailStatus = 'not_sent';
      await tx.flush();
    }
    return toInviteDto(invite, services, await loadLinkOwner(tx, organizationId));
  });
}
