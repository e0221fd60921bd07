import type { EntityManager } from '@mikro-orm/postgresql';
import {
  SEARCH_TOTAL_CAP,
  type SearchFilters,
  type TSearchHit,
  type TSearchResult,
  type TSearchSnippetSegment,
} from '../../../shared/schemas/search.js';
import { isoTimestamp, joinSql, queryRows, rawSql, type Sql, sql } from '../../db/sql.js';
import { AppError, notFound } from '../../errors.js';
import { decodeSearchCursor, encodeSearchCursor } from './search-cursor.js';
import { matchesSearch, parseSearchText, rowRegconfig, rowTsquery, type SearchTsqueries } from './search-language.js';

export interface SearchRequest {
  query: string;
  filters: SearchFilters;
  limit: number;
  cursor?: string | undefined;
}

/**
 * ts_rank_cd normalisation: 1 divides by 1 + log(length), so a long answer that mentions a word
 * once does not beat a short one about it; 32 maps the rank to 0..1 (rank / (rank + 1)) without
 * changing the order. Weights are the defaults: participant answers are indexed A (1.0), the
 * interviewer's turns D (0.1).
 */
const RANK_NORMALIZATION = 1 | 32;

/** Private-use characters as ts_headline's markers: stripped from the text first, so they can only be ours. */
const START = '\uE000';
const STOP = '\uE001';
const MARKERS = `StartSel=${START}, StopSel=${STOP}`;
/** An utterance up to this many characters is its own snippet; a longer one is cut to ~15–35 words around the best match. */
const WHOLE_SNIPPET_CHARACTERS = 300;
const EXCERPT_OPTIONS = `${MARKERS}, MaxWords=35, MinWords=15, ShortWord=2`;
const WHOLE_OPTIONS = `${MARKERS}, HighlightAll=true`;

interface HitRow {
  id: string;
  session_id: string;
  campaign_id: string;
  campaign_name: string;
  question_id: string | null;
  speaker: 'ai' | 'participant';
  text: string;
  rank: number;
  rank_text: string;
  start_time: number;
  sentiment: TSearchHit['sentiment'];
  session_started_at: string | null;
  headline: string;
}

/**
 * `search.query`: the utterances of every session of the organization matching `query`
 * (websearch_to_tsquery syntax), best first, with a highlighted snippet each.
 *
 * One statement ranks every match (the GIN index finds them, ts_rank_cd orders them, a bounded
 * sort keeps the page) and cuts snippets for the page's rows only, ts_headline being the costly
 * part; a second, run beside it, counts matches up to SEARCH_TOTAL_CAP, so a common word costs
 * no more than its ranking.
 */
export async function searchTranscripts(em: EntityManager, organizationId: string, request: SearchRequest): Promise<TSearchResult> {
  const { query, filters, limit } = request;
  const after = request.cursor === undefined ? undefined : decodeSearchCursor(request.cursor, query, filters);
  const tsqueries = await parseSearchText(em, query);
  if (!tsqueries.indexable) {
    // Only excluded words (`-price`) would match nearly everything, and no index can answer it.
    throw new AppError('VALIDATION_ERROR', 'query needs at least one word to find (words after - are excluded, not searched).', {
      fields: [{ path: 'query', message: 'needs at least one word to find, not only excluded words' }],
    });
  }
  const campaignScope = await resolveCampaignScope(em, organizationId, filters);
  // Only stop words (`the`, in every language), or projects without campaigns: nothing can match.
  if (tsqueries.groups.length === 0 || campaignScope?.length === 0) return { data: [], total: 0, totalCapped: false, hasMore: false, nextCursor: null };

  const where = matchConditions(organizationId, tsqueries, filters, campaignScope);
  const keyset = after ? sql`where m.rank < ${after.rank}::real or (m.rank = ${after.rank}::real and m.id > ${after.id})` : sql``;
  // Ranking carries only (id, rank) through the sort of every match; the page's rows are read
  // back by primary key, and only they get a snippet. `offset 0` keeps the ranking subquery whole:
  // flattened, the planner would compute ts_rank_cd up to three times a row on later pages
  // (keyset filter, then sort key).
  const pageQuery = sql`
    select p.id, p.session_id, s.campaign_id, c.name as campaign_name, p.question_id, p.speaker, p.text, r.rank, r.rank::text as rank_text,
           p.start_time, coalesce(p.sentiment_override, p.sentiment) as sentiment, ${rawSql(isoTimestamp('s.started_at'))} as session_started_at,
           ts_headline(${rowRegconfig('p')}, translate(p.text, ${START + STOP}, ''), ${rowTsquery('p', tsqueries)},
                       case when length(p.text) <= ${WHOLE_SNIPPET_CHARACTERS} then ${WHOLE_OPTIONS} else ${EXCERPT_OPTIONS} end) as headline
      from (
        select m.id, m.rank from (
          select u.id, ts_rank_cd(u.search_vector, ${rowTsquery('u', tsqueries)}, ${RANK_NORMALIZATION}) as rank
            from session_utterances u
           where ${where}
          offset 0
        ) m
        ${keyset}
        order by m.rank desc, m.id
        limit ${limit + 1}
      ) r
      join session_utterances p on p.id = r.id
      join sessions s on s.id = p.session_id
      join campaigns c on c.id = s.campaign_id
     order by r.rank desc, r.id`;
  const countQuery = sql`select count(*)::int as total from (select 1 from session_utterances u where ${where} limit ${SEARCH_TOTAL_CAP + 1}) m`;

  const [rows, [counted]] = await Promise.all([queryRows<HitRow>(em, pageQuery), queryRows<{ total: number }>(em, countQuery)]);
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

/** The WHERE of the matches: the organization's utterances matching the text, narrowed by the filters. */
function matchConditions(organizationId: string, tsqueries: SearchTsqueries, filters: SearchFilters, campaignScope: string[] | undefined): Sql {
  const conditions: Sql[] = [sql`u.organization_id = ${organizationId}`, matchesSearch('u', tsqueries)];
  if (filters.speaker && filters.speaker !== 'all') conditions.push(sql`u.speaker = ${filters.speaker}`);
  if (filters.questionIds) conditions.push(sql`u.question_id = any(${filters.questionIds}::text[])`);
  if (filters.sentiment) conditions.push(sql`coalesce(u.sentiment_override, u.sentiment) = any(${filters.sentiment}::text[])`);

  const sessionConditions: Sql[] = [];
  if (campaignScope) sessionConditions.push(sql`s.campaign_id = any(${campaignScope}::text[])`);
  if (filters.from) sessionConditions.push(sql`s.started_at >= ${filters.from}::timestamptz`);
  if (filters.to) sessionConditions.push(sql`s.started_at < ${filters.to}::timestamptz`);
  if (sessionConditions.length > 0) {
    conditions.push(sql`u.session_id in (select s.id from sessions s where s.organization_id = ${organizationId} and not s.preview and ${joinSql(sessionConditions, ' and ')})`);
  } else {
    // Previews are never results; they are few, so one hashed list, not a lookup per match.
    conditions.push(sql`u.session_id not in (select s.id from sessions s where s.organization_id = ${organizationId} and s.preview)`);
  }
  return joinSql(conditions, ' and ');
}

/**
 * The campaigns the campaign and project filters leave (undefined: no such filter), as a list of
 * ids: the planner estimates a constant list from its statistics, where a nested subquery would
 * get a guess (and a guess of few sessions walks every utterance of each instead of the index).
 * The filters name the organization's own: another's (or a deleted one) is 404, as everywhere.
 */
export async function resolveCampaignScope(em: EntityManager, organizationId: string, filters: SearchFilters): Promise<string[] | undefined> {
  const campaignIds = filters.campaignIds?.length ? filters.campaignIds : undefined;
  const projectIds = filters.projectIds?.length ? filters.projectIds : undefined;
  if (!campaignIds && !projectIds) return undefined;
  const parts: Sql[] = [];
  if (campaignIds) {
    parts.push(sql`select 'campaign' as kind, id, ordinality - 1 as position from unnest(${campaignIds}::text[]) with ordinality as given(id, ordinality)
                    where not exists (select 1 from campaigns c where c.id = given.id and c.organization_id = ${organizationId} and not c.preview)`);
  }
  if (projectIds) {
    parts.push(sql`select 'project' as kind, id, ordinality - 1 as position from unnest(${projectIds}::text[]) with ordinality as given(id, ordinality)
                    where not exists (select 1 from projects p where p.id = given.id and p.organization_id = ${organizationId})`);
    parts.push(sql`select 'scope' as kind, c.id, null as position from campaigns c
                    where c.organization_id = ${organizationId} and c.project_id = any(${projectIds}::text[])
                      ${campaignIds ? sql`and c.id = any(${campaignIds}::text[])` : sql``}`);
  }
  const rows = await queryRows<{ kind: 'campaign' | 'project' | 'scope'; id: string; position: string | null }>(em, sql`${joinSql(parts, ' union all ')}`);
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
    speaker: row.speaker,
    text: row.text,
    snippet: snippetSegments(row.headline, row.text),
    rank: row.rank,
    startTime: row.start_time,
    sentiment: row.sentiment,
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
  for (const [index, part] of headline.split(START).entries()) {
    if (index === 0) {
      push(part.replaceAll(STOP, ''), false);
      continue;
    }
    const stop = part.indexOf(STOP);
    if (stop === -1) push(part, true);
    else {
      push(part.slice(0, stop), true);
      push(part.slice(stop + 1).replaceAll(STOP, ''), false);
    }
  }
  const excerpt = segments.map((segment) => segment.text).join('').trim();
  const whole = text.replace(/[\uE000\uE001]/g, '').trim();
  if (excerpt !== '' && !whole.startsWith(excerpt)) segments.unshift({ text: '… ', match: false });
  if (excerpt !== '' && !whole.endsWith(excerpt)) segments.push({ text: ' …', match: false });
  return segments;
}
