import { LockMode } from '@mikro-orm/core';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { UNFINISHED_SESSION_STATUSES } from '../../../shared/schemas/sessions.js';
import { Campaign, Session } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { loadCampaign } from './load-campaign.js';

/**
 * Removes the campaign for good, with its invites and sessions. Refused (409
 * CAMPAIGN_HAS_ACTIVE_SESSIONS) while an interview is under way: its participant would lose it
 * mid-answer, and its minutes would go unbilled. The campaign row is locked first, so no session
 * can start between the check and the delete (a start share-locks the campaign).
 */
export async function deleteCampaign({ em }: Pick<Deps, 'em'>, caller: Caller, input: { campaignId: string }): Promise<void> {
  await em.transactional(async (tx) => {
    const campaign = await loadCampaign(tx, caller, { campaignId: input.campaignId, lockMode: LockMode.PESSIMISTIC_WRITE });
    const active = await tx.count(Session, { campaign: campaign.id, status: { $in: [...UNFINISHED_SESSION_STATUSES] } });
    if (active > 0) {
      throw new AppError(
        'CAMPAIGN_HAS_ACTIVE_SESSIONS',
        `Campaign ${campaign.id} has ${active} interview(s) under way; archive it, or delete it once they end.`,
        {
          campaignId: campaign.id,
          activeSessions: active,
        },
      );
    }
    await tx.nativeDelete(Campaign, { id: campaign.id });
  });
}
