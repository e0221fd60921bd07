import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parseDurationSeconds } from '../../../shared/durations.js';
import type { TShareLink, TShareLinkOptions } from '../../../shared/schemas/share-links.js';
import { type Campaign, ShareLink } from '../../entities/index.js';
import { newId } from '../../lib/ids.js';
import { assertCampaignAcceptsInvites, loadCampaign } from '../campaigns/index.js';
import type { Caller } from '../common/caller.js';
import { loadLinkOwner } from '../organizations/index.js';
import type { ShareLinkDeps } from './load-share-link.js';
import { toShareLinkDto } from './serialize.js';
import { newShareCode } from './share-codes.js';

/** Adds a share link to an active campaign, inside the caller's transaction. */
export async function insertShareLink(tx: EntityManager, campaign: Campaign, options: TShareLinkOptions): Promise<ShareLink> {
  assertCampaignAcceptsInvites(campaign);
  const now = new Date();
  const expiresAt = options.expiresAt
    ? new Date(options.expiresAt)
    : options.expiresIn
      ? new Date(now.getTime() + parseDurationSeconds(options.expiresIn)! * 1000)
      : null;
  const link = tx.create(ShareLink, {
    id: newId('shl'),
    organization: campaign.organization,
    campaign,
    code: newShareCode(),
    maxRespondents: options.maxRespondents ?? null,
    expiresAt,
    closedAt: null,
  });
  await tx.flush();
  return link;
}

export async function createShareLink({ em, services }: ShareLinkDeps, caller: Caller, input: TShareLinkOptions & { campaignId: string }): Promise<TShareLink> {
  const { campaignId, ...options } = input;
  return em.transactional(async (tx) => {
    const campaign = await loadCampaign(tx, caller, { campaignId, lockMode: LockMode.PESSIMISTIC_READ });
    const link = await insertShareLink(tx, campaign, options);
    return toShareLinkDto(link, campaign, 0, await loadLinkOwner(tx, caller), services.links);
  });
}
