import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign, TUpdateCampaignInput } from '../../../shared/schemas/campaigns.js';
import { METADATA_LIMITS, ZMetadata } from '../../../shared/schemas/common.js';
import { validationError } from '../../errors.js';
import { loadProject } from '../projects/load-project.js';
import { assertCampaignNotArchived, loadCampaign } from './load-campaign.js';
import { toCampaignDtoWithStats } from './serialize.js';
import { loadUsableScript } from './usable-script.js';

/** Key-by-key merge: a `null` value removes the key. */
function mergeObject<T extends Record<string, unknown>>(current: T, patch: Record<string, unknown>): T {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return merged as T;
}

/**
 * Partial update. settings, inviteDefaults and metadata are merged into the stored objects.
 * Archived campaigns are final (409 CAMPAIGN_ARCHIVED).
 */
export async function updateCampaign(em: EntityManager, organizationId: string, input: TUpdateCampaignInput): Promise<TCampaign> {
  return em.transactional(async (tx) => {
    const campaign = await loadCampaign(tx, organizationId, input.campaignId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    assertCampaignNotArchived(campaign);
    if (input.name !== undefined) campaign.name = input.name;
    if (input.description !== undefined) campaign.description = input.description;
    if (input.scriptId !== undefined && input.scriptId !== campaign.script.id) {
      campaign.script = await loadUsableScript(tx, organizationId, input.scriptId);
    }
    if (input.projectId !== undefined) {
      campaign.project = input.projectId === null ? null : await loadProject(tx, organizationId, input.projectId, 'projectId');
    }
    if (input.settings !== undefined) campaign.settings = mergeObject(campaign.settings, input.settings);
    if (input.inviteDefaults !== undefined) campaign.inviteDefaults = mergeObject(campaign.inviteDefaults, input.inviteDefaults);
    if (input.metadata !== undefined) {
      const merged = mergeObject(campaign.metadata, input.metadata);
      if (!ZMetadata.safeParse(merged).success) {
        throw validationError([
          { path: 'metadata', message: `merged metadata must have at most ${METADATA_LIMITS.maxKeys} keys and ${METADATA_LIMITS.maxBytes} bytes` },
        ]);
      }
      campaign.metadata = merged;
    }
    campaign.updatedAt = new Date();
    await tx.flush();
    return toCampaignDtoWithStats(tx, campaign);
  });
}
