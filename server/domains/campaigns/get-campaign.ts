import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { TCampaign } from '../../../shared/schemas/campaigns.js';
import { notFound } from '../../errors.js';
import { findCampaignWithStats } from './campaign-rows.js';

/** `GET /v1/campaigns/{id}`: one statement, the campaign and its stats. */
export async function getCampaign({ em }: Pick<Deps, 'em'>, caller: Caller, input: { campaignId: string }): Promise<TCampaign> {
  const campaign = await findCampaignWithStats(em, caller, input);
  if (!campaign) throw notFound('campaign', input.campaignId);
  return campaign;
}
