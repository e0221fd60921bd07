import type { TCampaignResultSessionsInput, TResultsSession, TResultsSessionPage } from '../../../shared/schemas/campaign-results.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadResultsCampaign } from './load-results-campaign.js';
import { campaignResultSessionsPage, campaignResultSessionsTotal } from './queries.js';

/**
 * The sessions behind a campaign's results under the same filter as its charts, newest first,
 * by offset (the results page pages a filtered view, not a feed). Two statements: the campaign,
 * then the page with the filter's total.
 */
export async function listCampaignResultSessions({ em }: Pick<Deps, 'em'>, caller: Caller, input: TCampaignResultSessionsInput): Promise<TResultsSessionPage> {
  const campaign = await loadResultsCampaign(em, caller, input);
  const scope = { organizationId: caller.organizationId, campaignId: campaign.id, filter: input.filter ?? {} };
  const rows = (await campaignResultSessionsPage.rows(em, { ...scope, limit: input.limit, offset: input.offset })) as (Omit<TResultsSession, 'segment'> & {
    segment: Record<string, string | number | boolean>;
    total: number;
  })[];
  // Past the last page there are no rows to carry the total: count it alone.
  const total = rows[0]?.total ?? (input.offset === 0 ? 0 : (await campaignResultSessionsTotal.first(em, scope))!.total);
  return {
    data: rows.map(({ total: _total, segment, ...row }) => ({
      ...row,
      segment: Object.fromEntries(Object.entries(segment).map(([key, value]) => [key, String(value)])),
    })),
    pagination: { total, limit: input.limit, offset: input.offset, hasMore: input.offset + rows.length < total, nextCursor: null },
  };
}
