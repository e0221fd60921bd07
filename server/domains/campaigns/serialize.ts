import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign, TCampaignStats } from '../../../shared/schemas/campaigns.js';
import type { Campaign } from '../../entities/index.js';

export function toCampaignDto(campaign: Campaign, stats: TCampaignStats): TCampaign {
  return {
    id: campaign.id,
    name: campaign.name,
    description: campaign.description ?? null,
    scriptId: campaign.script.id,
    projectId: campaign.project?.id ?? null,
    status: campaign.status,
    settings: campaign.settings,
    inviteDefaults: campaign.inviteDefaults,
    metadata: campaign.metadata,
    stats,
    createdAt: campaign.createdAt.toISOString(),
    updatedAt: campaign.updatedAt.toISOString(),
  };
}

const NO_ACTIVITY: TCampaignStats = { totalInvites: 0, completedSessions: 0, averageDuration: 0 };

/**
 * Campaign statistics are computed from invite and session rows at read time (never stored
 * counters that drift), for a whole page at once. Invites and sessions are not part of the
 * service yet, so every campaign has none; when their tables land, this function becomes one
 * grouped query over them and nothing else changes.
 */
export async function loadCampaignStats(_em: EntityManager, campaignIds: string[]): Promise<Map<string, TCampaignStats>> {
  return new Map(campaignIds.map((id) => [id, { ...NO_ACTIVITY }]));
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
