import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TInvite } from '../../../shared/schemas/invites.js';
import { UNFINISHED_SESSION_STATUSES } from '../../../shared/schemas/sessions.js';
import { Session } from '../../entities/index.js';
import { finishSession } from '../sessions/finish-session.js';
import { assertInviteModifiable, loadInvite } from './load-invite.js';
import { type InviteLinkServices, toInviteDto } from './serialize.js';
import { loadLinkOwner } from '../organizations/index.js';

/**
 * Revokes the token: a cancelled invite's link no longer opens anything. A queued email is not
 * sent (the send job checks the status). Pending or started invites can be cancelled; cancelling
 * a cancelled one changes nothing. An interview under way on it is abandoned in the same
 * transaction (its minutes billed, its hold released): its participant can no longer reach it.
 */
export async function cancelInvite(em: EntityManager, services: InviteLinkServices, organizationId: string, inviteId: string): Promise<TInvite> {
  return em.transactional(async (tx) => {
    // Lock order session → invite, as finishing a session takes them.
    const unfinished = await tx.findOne(
      Session,
      { invite: inviteId, organization: organizationId, status: { $in: [...UNFINISHED_SESSION_STATUSES] } },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    const invite = await loadInvite(tx, organizationId, inviteId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (invite.status !== 'cancelled') {
      assertInviteModifiable(invite, 'cancelled', { allowStarted: true });
      invite.status = 'cancelled';
      invite.cancelledAt = new Date();
      if (invite.emailStatus === 'queued') invite.emailStatus = 'not_sent';
      await tx.flush();
      if (unfinished) await finishSession(tx, unfinished, 'abandoned', new Date());
    }
    return toInviteDto(invite, services, await loadLinkOwner(tx, { organizationId }));
  });
}
