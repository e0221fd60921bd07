import type { TCampaign, TCampaignStats } from '../../../shared/schemas/campaigns.js';
import type { Campaign } from '../../entities/index.js';

export function toCampaignDto(campaign: Campaign, stats: TCampaignStats): TCampaign {
  return {
    id: campaign.id,
    name: campaign.name,
    participantTitle: campaign.participantTitle ?? null,
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
