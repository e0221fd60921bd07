import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign, TCampaignStats } from '../../../shared/schemas/campaigns.js';
import type { Campaign } from '../../entities/index.js';
import { toCampaignDto } from './serialize.js';

/**
 * Campaign statistics are computed from invite rows at read time (never stored counters that
 * drift), for a whole page in one grouped query. Sessions are not part of the service yet, so
 * completedSessions and averageDuration stay 0 until their table joins this query.
 */
export async function loadCampaignStats(em: EntityManager, campaignIds: string[]): Promise<Map<string, TCampaignStats>> {
  const stats = new Map(campaignIds.map((id) => [id, { totalInvites: 0, completedSessions: 0, averageDuration: 0 }]));
  if (campaignIds.length === 0) return stats;
  const rows = await em.execute<{ campaign_id: string; total_invites: string }[]>(
    `select campaign_id, count(*) as total_invites from invites where campaign_id = any(array[?]::text[]) group by campaign_id`,
    [campaignIds],
  );
  for (const row of rows) stats.get(row.campaign_id)!.totalInvites = Number(row.total_invites);
  return stats;
}

export async function toCampaignDtos(em: EntityManager, campaigns: Campaign[]): Promise<TCampaign[]> {
  const stats = await loadCampaignStats(
    em,
    campaigns.map((campaign) => campaign.id),
  );
  return campaigns.map((campaign) => toCampaignDto(campaign, stats.get(campaign.id)!));
}

export async function toCampaignDtoWithStats(em: EntityManager, campaign: Campaign): Promise<TCampaign> {
  const [dto] = await toCampaignDtos(em, [campaign]);
  return dto!;
}
