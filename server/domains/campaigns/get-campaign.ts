import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign } from '../../../shared/schemas/campaigns.js';
import { notFound } from '../../errors.js';
import { findCampaignWithStats } from './campaign-rows.js';

/** `GET /v1/campaigns/{id}`: one statement, the campaign and its stats. */
export async function getCampaign(em: EntityManager, organizationId: string, campaignId: string): Promise<TCampaign> {
  const campaign = await findCampaignWithStats(em, organizationId, campaignId);
  if (!campaign) throw notFound('campaign', campaignId);
  return campaign;
}
