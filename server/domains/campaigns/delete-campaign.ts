import type { EntityManager } from '@mikro-orm/postgresql';
import { Campaign } from '../../entities/index.js';
import { notFound } from '../../errors.js';

/** Removes the campaign for good (its invites and sessions go with it once they exist). */
export async function deleteCampaign(em: EntityManager, organizationId: string, campaignId: string): Promise<void> {
  const deleted = await em.nativeDelete(Campaign, { id: campaignId, organization: organizationId });
  if (deleted === 0) throw notFound('campaign', campaignId);
}
