import { LockMode } from '@mikro-orm/core';
import type { TInvite } from '../../../shared/schemas/invites.js';
import { UNFINISHED_SESSION_STATUSES } from '../../../shared/schemas/sessions.js';
import { Session } from '../../entities/index.js';
import { assertInviteModifiable, type InviteLinkServices, loadInvite, toInviteDto } from '../invites/index.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadLinkOwner } from '../organizations/index.js';
import { abandonSession } from './finish-session.js';

/**
 * `POST /v1/invites/{inviteId}/cancel` (the procedure `invites.cancel`, declared in
 * sessions/router.ts and mounted under invites): it lives with sessions because cancelling
 * abandons the interview under way on the invite, which only sessions can finish.
 *
 * Revokes the token: a cancelled invite's link no longer opens anything. A queued email is not
 * sent (the send job checks the status). Pending or started invites can be cancelled; cancelling
 * a cancelled one changes nothing. An interview under way on it is abandoned in the same
 * transaction (its minutes billed, its hold released): its participant can no longer reach it.
 */
export async function cancelInvite(
  { em, services }: Pick<Deps, 'em'> & { services: InviteLinkServices },
  caller: Caller,
  input: { inviteId: string },
): Promise<TInvite> {
  const { organizationId } = caller;
  const { inviteId } = input;
  return em.transactional(async (tx) => {
    // Lock order session → invite, as finishing a session takes them.
    const unfinished = await tx.findOne(
      Session,
      { invite: inviteId, organization: organizationId, status: { $in: [...UNFINISHED_SESSION_STATUSES] } },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    const invite = await loadInvite(tx, caller, { inviteId, lockMode: LockMode.PESSIMISTIC_WRITE });
    if (invite.status !== 'cancelled') {
      assertInviteModifiable(invite, 'cancelled', { allowStarted: true });
      invite.status = 'cancelled';
      invite.cancelledAt = new Date();
      if (invite.emailStatus === 'queued') invite.emailStatus = 'not_sent';
      await tx.flush();
      if (unfinished) await abandonSession(tx, unfinished, 'invite_cancelled', new Date());
    }
    return toInviteDto(invite, services, await loadLinkOwner(tx, { organizationId }));
  });
}
