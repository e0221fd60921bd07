import type { EntityManager } from '@mikro-orm/postgresql';
import { SEARCH_TOTAL_CAP, type SearchFilters, type TSearchHit, type TSearchResult, type TSearchSnippetSegment } from '../../../shared/schemas/search.js';
import type { RowOf } from '../../db/query.js';
import type { Caller, OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { AppError, notFound } from '../../errors.js';
import { decodeSearchCursor, encodeSearchCursor } from './search-cursor.js';
import { campaignScopeRows, SNIPPET_START, SNIPPET_STOP, searchHitsPage, searchMatchCount } from './queries.js';
import { parseSearchText } from './search-language.js';

export interface SearchRequest {
  query: string;
  filters: SearchFilters;
  limit: number;
  cursor?: string | undefined;
}

type HitRow = RowOf<(typeof searchHitsPage)['columns']>;

/**
 * `search.query`: the utterances of every session of the organization matching `query`
 * (websearch_to_tsquery syntax), best first, with a highlighted snippet each.
 *
 * One statement ranks every match (the GIN index finds them, ts_rank_cd orders them, a bounded
 * sort keeps the page) and cuts snippets for the page's rows only, ts_headline being the costly
 * part; a second, run beside it, counts matches up to SEARCH_TOTAL_CAP, so a common word costs
 * no more than its ranking.
 */
export async function searchTranscripts({ em }: Pick<Deps, 'em'>, caller: Caller, request: SearchRequest): Promise<TSearchResult> {
  const { organizationId } = caller;
  const { query, filters, limit } = request;
  const after = request.cursor === undefined ? undefined : decodeSearchCursor(request.cursor, query, filters);
  const tsqueries = await parseSearchText(em, query);
  if (!tsqueries.indexable) {
    // Only excluded words (`-price`) would match nearly everything, and no index can answer it.
    throw new AppError('VALIDATION_ERROR', 'query needs at least one word to find (words after - are excluded, not searched).', {
      fields: [{ path: 'query', message: 'needs at least one word to find, not only excluded words' }],
    });
  }
  const campaignScope = await resolveCampaignScope(em, caller, filters);
  // Only stop words (`the`, in every language), or projects without campaigns: nothing can match.
  if (tsqueries.groups.length === 0 || campaignScope?.length === 0) return { data: [], total: 0, totalCapped: false, hasMore: false, nextCursor: null };

  const match = { organizationId, tsqueries, filters, campaignScope };
  const [rows, counted] = await Promise.all([searchHitsPage.rows(em, { ...match, after, limit }), searchMatchCount.first(em, match)]);
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  return {
    data: page.map(toHit),
    total: Math.min(counted!.total, SEARCH_TOTAL_CAP),
    totalCapped: counted!.total > SEARCH_TOTAL_CAP,
    hasMore,
    nextCursor: hasMore && last ? encodeSearchCursor(query, filters, { rank: last.rank_text, id: last.id }) : null,
  };
}

/**
 * The campaigns the campaign and project filters leave (undefined: no such filter), as a list of
 * ids: the planner estimates a constant list from its statistics, where a nested subquery would
 * get a guess (and a guess of few sessions walks every utterance of each instead of the index).
 * The filters name the organization's own: another's (or a deleted one) is 404, as everywhere.
 */
export async function resolveCampaignScope(em: EntityManager, scope: OrganizationScope, filters: SearchFilters): Promise<string[] | undefined> {
  const campaignIds = filters.campaignIds?.length ? filters.campaignIds : undefined;
  const projectIds = filters.projectIds?.length ? filters.projectIds : undefined;
  if (!campaignIds && !projectIds) return undefined;
  const rows = await campaignScopeRows.rows(em, { organizationId: scope.organizationId, campaignIds, projectIds });
  const missing = rows.filter((row) => row.kind !== 'scope').sort((a, b) => a.kind.localeCompare(b.kind) || Number(a.position) - Number(b.position))[0];
  if (missing) throw notFound(missing.kind as 'campaign' | 'project', missing.id, `filters.${missing.kind}Ids[${missing.position}]`);
  return projectIds ? rows.map((row) => row.id) : campaignIds;
}

function toHit(row: HitRow): TSearchHit {
  return {
    sessionId: row.session_id,
    campaignId: row.campaign_id,
    campaignName: row.campaign_name,
    utteranceId: row.id,
    questionId: row.question_id,
    speaker: row.speaker as TSearchHit['speaker'],
    text: row.text,
    snippet: snippetSegments(row.headline, row.text),
    rank: row.rank,
    startTime: row.start_time,
    sentiment: row.sentiment as TSearchHit['sentiment'],
    sessionStartedAt: row.session_started_at,
  };
}

/** ts_headline's output split at our markers; `…` where the excerpt cuts the utterance. */
export function snippetSegments(headline: string, text: string): TSearchSnippetSegment[] {
  const segments: TSearchSnippetSegment[] = [];
  const push = (piece: string, match: boolean) => {
    if (piece === '') return;
    const previous = segments.at(-1);
    if (previous && previous.match === match) previous.text += piece;
    else segments.push({ text: piece, match });
  };
  for (const [index, part] of headline.split(SNIPPET_START).entries()) {
    if (index === 0) {
      push(part.replaceAll(SNIPPET_STOP, ''), false);
      continue;
    }
    const stop = part.indexOf(SNIPPET_STOP);
    if (stop === -1) push(part, true);
    else {
      push(part.slice(0, stop), true);
      push(part.slice(stop + 1).replaceAll(SNIPPET_STOP, ''), false);
    }
  }
  const excerpt = segments
    .map((segment) => segment.text)
    .join('')
    .trim();
  const whole = text.replace(/[\uE000\uE001]/g, '').trim();
  if (excerpt !== '' && !whole.startsWith(excerpt)) segments.unshift({ text: '… ', match: false });
  if (excerpt !== '' && !whole.endsWith(excerpt)) segments.push({ text: ' …', match: false });
  return segments;
}
