import type { FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign, TListCampaignsInput } from '../../../shared/schemas/campaigns.js';
import type { Page } from '../../../shared/schemas/common.js';
import { Campaign } from '../../entities/index.js';
import { containsPattern, pageOf } from '../pagination.js';
import { toCampaignDtos } from './campaign-stats.js';

export async function listCampaigns(em: EntityManager, organizationId: string, input: TListCampaignsInput): Promise<Page<TCampaign>> {
  const where: FilterQuery<Campaign> = {
    organization: organizationId,
    ...(input.status ? { status: input.status } : {}),
    ...(input.projectId ? { project: input.projectId } : {}),
    ...(input.search ? { name: { $ilike: containsPattern(input.search) } } : {}),
  };
  // The id breaks ties so pages never overlap or skip when sort values repeat.
  const orderBy = { [input.sort]: input.order, id: input.order } as QueryOrderMap<Campaign>;
  const [campaigns, total] = await em.findAndCount(Campaign, where, {
    orderBy,
    limit: input.limit,
    offset: input.offset,
    // Read-only page: skipping the identity map skips change-tracking snapshots (bench/api.ts).
    disableIdentityMap: true,
  });
  return pageOf(await toCampaignDtos(em, campaigns), total, input.limit, input.offset);
}
