import { LockMode } from '@mikro-orm/core';
import type { TInvite } from '../../../shared/schemas/invites.js';
import { AppError } from '../../errors.js';
import { addJobs } from '../../jobs/add-jobs.js';
import { loadCampaign } from '../campaigns/index.js';
import { assertCampaignAcceptsInvites, resolveEmailTemplate } from '../campaigns/index.js';
import type { InviteServices } from './insert-invites.js';
import { inviteEmailJob } from './invite-email-job.js';
import { assertInviteModifiable, loadInvite } from './load-invite.js';
import { toInviteDto } from './serialize.js';
import { loadLinkOwner } from '../organizations/index.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/**
 * Queues the invitation email again (also for invites created with sendEmail false). Only a
 * pending invite of an active campaign, with an email address, can be resent.
 */
export async function resendInvite(
  { em, services }: Pick<Deps, 'em'> & { services: InviteServices },
  caller: Caller,
  input: { inviteId: string },
): Promise<TInvite> {
  return em.transactional(async (tx) => {
    const invite = await loadInvite(tx, caller, { inviteId: input.inviteId, lockMode: LockMode.PESSIMISTIC_WRITE });
    assertInviteModifiable(invite, 'resent');
    if (!invite.email) {
      throw new AppError('INVITE_HAS_NO_EMAIL', `Invite ${invite.id} has no email address to send to.`, { inviteId: invite.id });
    }
    const campaign = await loadCampaign(tx, caller, { campaignId: invite.campaign.id });
    assertCampaignAcceptsInvites(campaign);
    invite.emailTemplate = resolveEmailTemplate(services.emailTemplates, campaign, invite.emailTemplate ?? undefined);
    invite.emailStatus = 'queued';
    invite.emailQueuedAt = new Date();
    invite.emailError = null;
    await tx.flush();
    await addJobs(tx, [inviteEmailJob(invite.id)]);
    return toInviteDto(invite, services, await loadLinkOwner(tx, caller));
  });
}
