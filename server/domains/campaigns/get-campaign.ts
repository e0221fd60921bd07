import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign } from '../../../shared/schemas/campaigns.js';
import { loadCampaign } from './load-campaign.js';
import { toCampaignDtoWithStats } from './campaign-stats.js';

export async function getCampaign(em: EntityManager, organizationId: string, campaignId: string): Promise<TCampaign> {
  return toCampaignDtoWithStats(em, await loadCampaign(em, organizationId, campaignId));
}
