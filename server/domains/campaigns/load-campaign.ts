import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Campaign } from '../../entities/index.js';
import { AppError, notFound } from '../../errors.js';
import type { OrganizationScope } from '../common/caller.js';

/** The scope's organization's campaign or 404. */
export async function loadCampaign(em: EntityManager, scope: OrganizationScope, input: { campaignId: string; lockMode?: LockMode }): Promise<Campaign> {
  const { campaignId, ...options } = input;
  const campaign = await em.findOne(
    Campaign,
    // A script's hidden preview campaign is not one the API shows or changes: 404 like any unknown id.
    { id: campaignId, organization: scope.organizationId, preview: false },
    // A locking read refreshes what an earlier plain read of this transaction put in the identity map.
    options.lockMode ? { lockMode: options.lockMode, refresh: true } : {},
  );
  if (!campaign) throw notFound('campaign', campaignId);
  return campaign;
}

export function assertCampaignNotArchived(campaign: Campaign): void {
  if (campaign.status === 'archived') {
    throw new AppError('CAMPAIGN_ARCHIVED', `Campaign ${campaign.id} is archived and cannot be changed.`, { campaignId: campaign.id });
  }
}
