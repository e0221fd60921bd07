import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign, TCampaignStatus } from '../../../shared/schemas/campaigns.js';
import type { Campaign } from '../../entities/index.js';
import { assertCampaignNotArchived, loadCampaign } from './load-campaign.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { getCampaign } from './get-campaign.js';

async function transition(
  em: EntityManager,
  caller: Caller,
  { campaignId, apply }: { campaignId: string; apply: (campaign: Campaign) => TCampaignStatus },
): Promise<TCampaign> {
  return em.transactional(async (tx) => {
    const campaign = await loadCampaign(tx, caller, { campaignId, lockMode: LockMode.PESSIMISTIC_WRITE });
    const next = apply(campaign);
    if (next !== campaign.status) {
      campaign.status = next;
      if (next === 'archived') campaign.archivedAt = new Date();
      await tx.flush();
    }
    // Read back as every campaign answer is read: the row and its stats, in this transaction.
    return getCampaign({ em: tx }, caller, { campaignId: campaign.id });
  });
}

/** active → paused (new sessions cannot start). Pausing a paused campaign changes nothing. */
export function pauseCampaign({ em }: Pick<Deps, 'em'>, caller: Caller, input: { campaignId: string }): Promise<TCampaign> {
  return transition(em, caller, {
    campaignId: input.campaignId,
    apply: (campaign) => {
      assertCampaignNotArchived(campaign);
      return 'paused';
    },
  });
}

/** paused → active. Resuming an active campaign changes nothing. */
export function resumeCampaign({ em }: Pick<Deps, 'em'>, caller: Caller, input: { campaignId: string }): Promise<TCampaign> {
  return transition(em, caller, {
    campaignId: input.campaignId,
    apply: (campaign) => {
      assertCampaignNotArchived(campaign);
      return 'active';
    },
  });
}

/** active | paused → archived, which is final. Archiving twice changes nothing. */
export function archiveCampaign({ em }: Pick<Deps, 'em'>, caller: Caller, input: { campaignId: string }): Promise<TCampaign> {
  return transition(em, caller, { campaignId: input.campaignId, apply: () => 'archived' });
}
