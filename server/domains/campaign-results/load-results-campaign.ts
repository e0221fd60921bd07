import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../errors.js';
import type { OrganizationScope } from '../common/caller.js';
import { type ResultsCampaign, resultsCampaign } from './queries.js';

/** The campaign of this organization (never a preview one), or RESOURCE_NOT_FOUND naming `campaignId`. */
export async function loadResultsCampaign(em: EntityManager, scope: OrganizationScope, input: { campaignId: string }): Promise<ResultsCampaign> {
  const campaign = await resultsCampaign.first(em, { organizationId: scope.organizationId, campaignId: input.campaignId });
  if (!campaign) throw notFound('campaign', input.campaignId, 'campaignId');
  return campaign;
}
