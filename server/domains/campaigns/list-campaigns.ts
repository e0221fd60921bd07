import type { FilterQuery } from '@mikro-orm/core';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { TCampaign, TListCampaignsInput } from '../../../shared/schemas/campaigns.js';
import type { Page } from '../../../shared/schemas/common.js';
import { Campaign } from '../../entities/index.js';
import { containsPattern } from '../common/pagination.js';
import { findPage, type KeysetSort, pageFrom } from '../common/keyset-page.js';

/** The sorts a campaign list offers, as keysets (their direction from the request). */
const CAMPAIGN_SORTS: Record<TListCampaignsInput['sort'], Omit<KeysetSort, 'direction'>> = {
  name: { property: 'name', column: 'name', type: 'text' },
  createdAt: { property: 'createdAt', column: 'created_at', type: 'timestamptz' },
  updatedAt: { property: 'updatedAt', column: 'updated_at', type: 'timestamptz' },
};
import { findCampaignsWithStats, listCampaignRows } from './campaign-rows.js';

export async function listCampaigns({ em }: Pick<Deps, 'em'>, caller: Caller, input: TListCampaignsInput): Promise<Page<TCampaign>> {
  // The common page (by offset) is one statement on the read path; cursor pages take the keyset below.
  if (input.startingAfter === undefined) return listCampaignRows(em, caller, input);
  const where: FilterQuery<Campaign> = {
    organization: caller.organizationId,
    preview: false,
    ...(input.status ? { status: input.status } : {}),
    ...(input.projectId ? { project: input.projectId } : {}),
    ...(input.search ? { name: { $ilike: containsPattern(input.search) } } : {}),
  };
  // The id breaks ties so pages never overlap or skip when sort values repeat.
  const sort = { ...CAMPAIGN_SORTS[input.sort], direction: input.order };
  // Read-only page: skipping the identity map skips change-tracking snapshots (bench/api.ts).
  const page = await findPage(em, Campaign, where, input, sort, { disableIdentityMap: true });
  return pageFrom(page, await findCampaignsWithStats(em, caller, { ids: page.items.map((campaign) => campaign.id) }));
}
