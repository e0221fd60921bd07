import { LockMode } from '@mikro-orm/core';
import type { OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { Campaign, Invite, ShareLink } from '../../entities/index.js';
import { AppError, notFound } from '../../errors.js';
import { assessShareLink } from './share-link-status.js';
import { assertInviteModifiable } from './load-invite.js';
import { inviteCampaignId } from './queries.js';

/**
 * The first interview start on an invite: pending → started. Called by the session start with the
 * invite's token, inside its transaction. Reopening a started invite changes nothing (the
 * session resumes). For share-link invites the respondent cap is enforced here, race-free: the
 * link's row is locked while its started invites are counted, so concurrent starts queue up and
 * exactly `maxRespondents` get through.
 */
export async function startInvite({ em: tx }: Pick<Deps, 'em'>, scope: OrganizationScope, input: { inviteId: string }): Promise<Invite> {
  const { inviteId } = input;
  // Lock order campaign → invite → share link, the order a campaign delete (campaign, then its
  // invites by cascade) and invite creation use, so the two cannot deadlock.
  const row = await inviteCampaignId.first(tx, { organizationId: scope.organizationId, inviteId });
  if (!row) throw notFound('invite', inviteId);
  const campaign = await tx.findOne(Campaign, row.campaign_id, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
  // Gone while this waited for the lock: the campaign (and its invites) was deleted.
  if (!campaign) throw notFound('invite', inviteId);
  const invite = await tx.findOne(Invite, inviteId, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!invite) throw notFound('invite', inviteId);
  const restart = invite.status === 'started' && invite.expiresAt > new Date();
  if (!restart) assertInviteModifiable(invite, 'started');
  // A paused or archived campaign starts nothing, a new session after an abandoned one included.
  if (campaign.status !== 'active') {
    throw new AppError('CAMPAIGN_NOT_ACTIVE', `Campaign ${campaign.id} is ${campaign.status}; interviews cannot start.`, {
      campaignId: campaign.id,
      status: campaign.status,
    });
  }
  // Started before (its session abandoned): a new session; the participant already counts for its share link.
  if (restart) return invite;
  if (invite.shareLink) {
    const link = await tx.findOneOrFail(ShareLink, invite.shareLink.id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const { status } = await assessShareLink(tx, link, campaign);
    if (status !== 'active') {
      throw new AppError('SHARE_LINK_CLOSED', `The share link is ${status}; no more interviews can start through it.`, {
        shareLinkId: link.id,
        status,
      });
    }
  }
  invite.status = 'started';
  invite.startedAt = new Date();
  await tx.flush();
  return invite;
}
