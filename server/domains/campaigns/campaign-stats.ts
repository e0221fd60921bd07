import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign, TCampaignStats } from '../../../shared/schemas/campaigns.js';
import type { Campaign } from '../../entities/index.js';
import { toCampaignDto } from './serialize.js';

/**
 * Campaign statistics are computed from invite and session rows at read time (never stored
 * counters that drift), for a whole page in one statement: invites, completed sessions (timed
 * out ones included: they are completed) and their average duration in whole seconds.
 */
async function loadCampaignStats(em: EntityManager, campaignIds: string[]): Promise<Map<string, TCampaignStats>> {
  const stats = new Map(campaignIds.map((id) => [id, { totalInvites: 0, completedSessions: 0, averageDuration: 0 }]));
  if (campaignIds.length === 0) return stats;
  const rows = await em.execute<{ campaign_id: string; total_invites: string | null; completed: string | null; average_duration: string | null }[]>(
    `with ids as (select unnest(array[?]::text[]) as campaign_id),
     invited as (select campaign_id, count(*) as total_invites from invites where campaign_id in (select campaign_id from ids) group by campaign_id),
     completed as (
       select campaign_id, count(*) as completed, avg(duration_seconds) as average_duration from sessions
       where campaign_id in (select campaign_id from ids) and status = 'completed' group by campaign_id
     )
     select ids.campaign_id, invited.total_invites, completed.completed, completed.average_duration
     from ids left join invited using (campaign_id) left join completed using (campaign_id)`,
    [campaignIds],
  );
  for (const row of rows) {
    const entry = stats.get(row.campaign_id)!;
    entry.totalInvites = Number(row.total_invites ?? 0);
    entry.completedSessions = Number(row.completed ?? 0);
    entry.averageDuration = Math.round(Number(row.average_duration ?? 0));
  }
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
