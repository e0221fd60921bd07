import { SEARCH_TOTAL_CAP, type SearchFilters } from '../../../shared/schemas/search.js';
import { defineQuery, type ColumnSpec } from '../../db/query.js';
import { isoTimestamp, joinSql, rawSql, type Sql, sql } from '../../db/sql.js';
import { matchesSearch, rowRegconfig, rowTsquery, SEARCH_LANGUAGES, type SearchLanguage, type SearchTsqueries } from './search-language.js';

/** The search text parsed in every configuration, one column each, and whether any word of it can be found. */
export const parsedSearchText = defineQuery({
  columns: {
    ...(Object.fromEntries(SEARCH_LANGUAGES.map((language) => [language, 'text'])) as Record<SearchLanguage, 'text'>),
    indexable: 'boolean',
  } satisfies Record<string, ColumnSpec>,
  statement: ({ text }: { text: string }) => {
    const columns = SEARCH_LANGUAGES.map((language) => sql`websearch_to_tsquery(${rawSql(`'${language}'::regconfig`)}, ${text})::text as ${rawSql(language)}`);
    return sql`select ${joinSql(columns)}, querytree(websearch_to_tsquery('simple', ${text})) <> 'T' as indexable`;
  },
  example: { text: 'invoices -price' },
});

/**
 * ts_rank_cd normalisation: 1 divides by 1 + log(length), so a long answer that mentions a word
 * once does not beat a short one about it; 32 maps the rank to 0..1 (rank / (rank + 1)) without
 * changing the order. Weights are the defaults: participant answers are indexed A (1.0), the
 * interviewer's turns D (0.1).
 */
const RANK_NORMALIZATION = 1 | 32;

/** Private-use characters as ts_headline's markers: stripped from the text first, so they can only be ours. */
export const SNIPPET_START = '\uE000';
export const SNIPPET_STOP = '\uE001';
const MARKERS = `StartSel=${SNIPPET_START}, StopSel=${SNIPPET_STOP}`;
/** An utterance up to this many characters is its own snippet; a longer one is cut to ~15–35 words around the best match. */
const WHOLE_SNIPPET_CHARACTERS = 300;
const EXCERPT_OPTIONS = `${MARKERS}, MaxWords=35, MinWords=15, ShortWord=2`;
const WHOLE_OPTIONS = `${MARKERS}, HighlightAll=true`;

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
    conditions.push(
      sql`u.session_id in (select s.id from sessions s where s.organization_id = ${organizationId} and not s.preview and ${joinSql(sessionConditions, ' and ')})`,
    );
  } else {
    // Previews are never results; they are few, so one hashed list, not a lookup per match.
    conditions.push(sql`u.session_id not in (select s.id from sessions s where s.organization_id = ${organizationId} and s.preview)`);
  }
  return joinSql(conditions, ' and ');
}

interface MatchParams {
  organizationId: string;
  tsqueries: SearchTsqueries;
  filters: SearchFilters;
  campaignScope: string[] | undefined;
}

/** Two groups (the text parsed differently in two languages) and every filter: the fullest shape of the statements. */
const matchExample: MatchParams = {
  organizationId: 'org_example',
  tsqueries: {
    groups: [
      { languages: ['english'], tsquery: "'invoic'" },
      { languages: ['dutch', 'german', 'french', 'spanish', 'simple'], tsquery: "'invoices'" },
    ],
    indexable: true,
  },
  filters: { from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z', sentiment: ['negative'], questionIds: ['q1'], speaker: 'participant' },
  campaignScope: ['cmp_example'],
};

type HitsPageParams = MatchParams & { after: { rank: string; id: string } | undefined; limit: number };

/**
 * A page of matches, best first, after the keyset `after`. Ranking carries only (id, rank)
 * through the sort of every match; the page's rows are read back by primary key, and only they
 * get a snippet. `offset 0` keeps the ranking subquery whole: flattened, the planner would
 * compute ts_rank_cd up to three times a row on later pages (keyset filter, then sort key).
 */
export const searchHitsPage = defineQuery({
  columns: {
    id: 'text',
    session_id: 'text',
    campaign_id: 'text',
    campaign_name: 'text',
    question_id: 'text | null',
    speaker: 'text',
    text: 'text',
    rank: 'real',
    rank_text: 'text',
    start_time: 'double precision',
    sentiment: 'text | null',
    session_started_at: 'text | null',
    headline: 'text',
  },
  statement: (params: HitsPageParams) => {
    const { tsqueries, after, limit } = params;
    const where = matchConditions(params.organizationId, tsqueries, params.filters, params.campaignScope);
    const keyset = after ? sql`where m.rank < ${after.rank}::real or (m.rank = ${after.rank}::real and m.id > ${after.id})` : sql``;
    return sql`
    select p.id, p.session_id, s.campaign_id, c.name as campaign_name, p.question_id, p.speaker, p.text, r.rank, r.rank::text as rank_text,
           p.start_time, coalesce(p.sentiment_override, p.sentiment) as sentiment, ${rawSql(isoTimestamp('s.started_at'))} as session_started_at,
           ts_headline(${rowRegconfig('p')}, translate(p.text, ${SNIPPET_START + SNIPPET_STOP}, ''), ${rowTsquery('p', tsqueries)},
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
  },
  example: { ...matchExample, after: { rank: '0.5', id: 'utt_example' }, limit: 20 } as HitsPageParams,
});

/** How many utterances match, counted up to SEARCH_TOTAL_CAP + 1 (a common word costs no more than its ranking). */
export const searchMatchCount = defineQuery({
  columns: { total: 'integer' },
  statement: ({ organizationId, tsqueries, filters, campaignScope }: MatchParams) =>
    sql`select count(*)::int as total from (select 1 from session_utterances u where ${matchConditions(organizationId, tsqueries, filters, campaignScope)} limit ${SEARCH_TOTAL_CAP + 1}) m`,
  example: matchExample,
});

/**
 * The campaign and project filters checked and resolved in one statement: a `campaign` or
 * `project` row for each id that is not the organization's (with its position in the filter),
 * and a `scope` row for each campaign the project filter leaves.
 */
export const campaignScopeRows = defineQuery({
  columns: { kind: 'text', id: 'text', position: 'bigint | null' },
  statement: ({ organizationId, campaignIds, projectIds }: { organizationId: string; campaignIds: string[] | undefined; projectIds: string[] | undefined }) => {
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
    return sql`${joinSql(parts, ' union all ')}`;
  },
  example: { organizationId: 'org_example', campaignIds: ['cmp_example'], projectIds: ['prj_example'] } as {
    organizationId: string;
    campaignIds: string[] | undefined;
    projectIds: string[] | undefined;
  },
});
