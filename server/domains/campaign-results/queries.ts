import type { TResultsFilter } from '../../../shared/schemas/campaign-results.js';
import { defineQuery } from '../../db/query.js';
import { isoTimestamp, joinSql, rawSql, type Sql, sql } from '../../db/sql.js';

/** How each completion filter reads on a session row. */
const COMPLETION_CONDITIONS: Record<NonNullable<TResultsFilter['completion']>, Sql> = {
  completed: sql`s.completion_status = 'completed'`,
  timed_out: sql`s.completion_status = 'timed_out'`,
  abandoned: sql`s.status = 'abandoned'`,
  unfinished: sql`s.status in ('created', 'in_progress', 'paused')`,
};

/** `key = value` on a metadata object of alias `alias`, compared as text (a number 3 matches "3"). */
function segmentConditions(alias: 's' | 'i', segment: TResultsFilter['segment']): Sql[] {
  const column = alias === 's' ? sql`s.metadata` : sql`i.metadata`;
  return Object.entries(segment ?? {}).map(([key, value]) => sql`${column} ->> ${key}::text = ${value}::text`);
}

/** A tag matches itself and its regions (`nl` keeps `nl-BE`), whatever the case; no LIKE, so no wildcard. */
function languageCondition(column: Sql, language: string): Sql {
  return sql`(lower(${column}) = lower(${language}::text) or starts_with(lower(${column}), lower(${language}::text) || '-'))`;
}

/**
 * The conditions a session row (alias `s`) must meet to count in a campaign's results: the
 * campaign, the organization, never a preview, then every part of the filter. Every number of
 * the results page is read through this one predicate, so the charts and the list agree.
 */
export function keptSessionsWhere(organizationId: string, campaignId: string, filter: TResultsFilter = {}): Sql {
  const conditions: Sql[] = [sql`s.organization_id = ${organizationId}`, sql`s.campaign_id = ${campaignId}`, sql`not s.preview`];
  conditions.push(...segmentConditions('s', filter.segment));
  if (filter.language) conditions.push(languageCondition(sql`s.language`, filter.language));
  if (filter.from) conditions.push(sql`s.created_at >= ${filter.from}::timestamptz`);
  if (filter.to) conditions.push(sql`s.created_at < ${filter.to}::timestamptz`);
  if (filter.completion) conditions.push(COMPLETION_CONDITIONS[filter.completion]);
  return joinSql(conditions, ' and ');
}

/**
 * What an invite (alias `i`, its campaign `c`, the script's published version `sv`) must meet to
 * count as invited under the filter, besides leading to a kept session: segment on the invite's
 * metadata, language (the invite's, else the campaign's, else the script's), created in the
 * window. A cancelled invite that never started was never really out there, and a preview's
 * invite is no participant's. With a completion
 * filter, only the invites of kept sessions count: an invite has no completion of its own.
 */
export function keptInvitesFilter(filter: TResultsFilter = {}): Sql {
  if (filter.completion) return sql`false`;
  const conditions: Sql[] = [
    sql`(i.cancelled_at is null or i.started_at is not null)`,
    sql`not exists (select 1 from sessions p where p.invite_id = i.id and p.preview)`,
  ];
  conditions.push(...segmentConditions('i', filter.segment));
  if (filter.language)
    conditions.push(languageCondition(sql`coalesce(i.language, c.settings ->> 'language', sv.settings ->> 'language', '')`, filter.language));
  if (filter.from) conditions.push(sql`i.created_at >= ${filter.from}::timestamptz`);
  if (filter.to) conditions.push(sql`i.created_at < ${filter.to}::timestamptz`);
  return joinSql(conditions, ' and ');
}

/** A campaign's results under a filter: whose, which campaign, and the filter. */
export interface ResultsScope {
  organizationId: string;
  campaignId: string;
  filter: TResultsFilter;
}

/** Every part of the filter at once, so the schema check plans the fullest shape of each statement. */
const resultsExample: ResultsScope = {
  organizationId: 'org_example',
  campaignId: 'cmp_example',
  filter: { segment: { plan: 'pro' }, language: 'en', from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z', completion: 'completed' },
};

/** The campaign of this organization (never a preview one), with its script's published version. */
export const resultsCampaign = defineQuery({
  columns: { id: 'text', script_id: 'text', published_version: 'integer | null' },
  statement: ({ organizationId, campaignId }: { organizationId: string; campaignId: string }) =>
    sql`select c.id, c.script_id, sc.published_version
          from campaigns c join scripts sc on sc.id = c.script_id
         where c.id = ${campaignId} and c.organization_id = ${organizationId} and not c.preview`,
  example: { organizationId: 'org_example', campaignId: 'cmp_example' },
});

export type ResultsCampaign = NonNullable<Awaited<ReturnType<typeof resultsCampaign.first>>>;

/** Segment picker limits: enough to choose from, bounded for a key that holds one value per participant. */
const SEGMENT_KEYS_LIMIT = 50;
const SEGMENT_VALUES_LIMIT = 50;
const COMMENTS_LIMIT = 50;
/** Quotes per open question: a taste of what participants said; the transcripts hold the rest. */
const QUOTES_LIMIT = 5;

/**
 * Campaign-wide, whatever the filter: the segment keys and values the picker offers, the
 * languages, and the script versions the campaign's sessions ran (and the published one).
 */
export const campaignResultFacets = defineQuery({
  columns: { segment_keys: 'jsonb', languages: 'jsonb', versions: 'jsonb' },
  statement: ({ organizationId, campaign }: { organizationId: string; campaign: ResultsCampaign }) =>
    sql`with cs as (
            select s.metadata, s.language, s.script_id, s.script_version from sessions s
             where s.organization_id = ${organizationId} and s.campaign_id = ${campaign.id} and not s.preview
          )
          select
            coalesce((select jsonb_agg(jsonb_build_object('key', k.key, 'values', to_jsonb(k.vals)) order by k.key)
                        from (select e.key, (array_agg(distinct e.value order by e.value))[1:${SEGMENT_VALUES_LIMIT}::int] as vals
                                from cs cross join lateral jsonb_each_text(cs.metadata) as e(key, value)
                               group by e.key order by e.key limit ${SEGMENT_KEYS_LIMIT}::int) k), '[]'::jsonb) as segment_keys,
            coalesce((select jsonb_agg(l.language order by l.language) from (select distinct cs.language from cs) l), '[]'::jsonb) as languages,
            coalesce((select jsonb_agg(jsonb_build_object('version', sv.version, 'questions', sv.questions))
                        from script_versions sv join scripts sc on sc.id = sv.script_id
                       where sc.organization_id = ${organizationId}
                         and ((sv.script_id, sv.version) in (select distinct cs.script_id, cs.script_version from cs)
                              or (sv.script_id = ${campaign.script_id} and sv.version = ${campaign.published_version}::int))), '[]'::jsonb) as versions`,
  example: { organizationId: 'org_example', campaign: { id: 'cmp_example', script_id: 'scr_example', published_version: 1 } as ResultsCampaign },
});

/** The funnel of the kept sessions: started, each ending, and the invites that count as invited. */
export const campaignResultFunnel = defineQuery({
  columns: { started: 'integer', completed: 'integer', timed_out: 'integer', abandoned: 'integer', in_progress: 'integer', invited: 'integer' },
  statement: ({ organizationId, campaignId, filter }: ResultsScope) => {
    const kept = keptSessionsWhere(organizationId, campaignId, filter);
    return sql`select count(*)::int as started,
                 count(*) filter (where s.completion_status = 'completed')::int as completed,
                 count(*) filter (where s.completion_status = 'timed_out')::int as timed_out,
                 count(*) filter (where s.status = 'abandoned')::int as abandoned,
                 count(*) filter (where s.status in ('created', 'in_progress', 'paused'))::int as in_progress,
                 (select count(*)::int
                    from invites i join campaigns c on c.id = i.campaign_id join scripts sc on sc.id = c.script_id
                    left join script_versions sv on sv.script_id = sc.id and sv.version = sc.published_version
                   where i.organization_id = ${organizationId} and i.campaign_id = ${campaignId}
                     and ((${keptInvitesFilter(filter)}) or i.id in (select s.invite_id from sessions s where ${kept}))) as invited
            from sessions s where ${kept}`;
  },
  example: resultsExample,
});

/** How many kept sessions gave each value to each question. One answer per session and question: a question answered twice (re-asked) counts its last value. */
export const campaignResultAnswers = defineQuery({
  columns: { question_id: 'text', value: 'jsonb', count: 'integer' },
  statement: ({ organizationId, campaignId, filter }: ResultsScope) => {
    const kept = keptSessionsWhere(organizationId, campaignId, filter);
    return sql`select a.question_id, a.value, count(*)::int as count
            from (select distinct on (s.id, x.answer ->> 'questionId') x.answer ->> 'questionId' as question_id, x.answer -> 'value' as value
                    from sessions s cross join lateral jsonb_array_elements(s.answers) with ordinality as x(answer, n)
                   where ${kept}
                   order by s.id, x.answer ->> 'questionId', x.n desc) a
           group by 1, 2`;
  },
  example: resultsExample,
});

/**
 * Open answers are utterances, not values: a session's answers (follow-up replies too) to a
 * question that was open in the script version it ran. Per session its longest answer in words
 * (a probe's "ok" never stands for someone who went on to say more; none in words: unreadable),
 * then per question the newest of those (row_number) up to QUOTES_LIMIT.
 */
export const campaignResultOpenAnswers = defineQuery({
  columns: { question_id: 'text', answered: 'integer', unreadable: 'integer', quotes: 'jsonb' },
  statement: ({ organizationId, campaignId, filter }: ResultsScope) => {
    const kept = keptSessionsWhere(organizationId, campaignId, filter);
    return sql`with open_questions as (
            select distinct sv.script_id, sv.version, q.question ->> 'id' as question_id
              from script_versions sv cross join lateral jsonb_array_elements(sv.questions) as q(question)
             where sv.script_id in (select s.script_id from sessions s where ${kept}) and q.question ->> 'type' = 'open'
          )
          select o.question_id,
                 count(*) filter (where o.text is not null)::int as answered,
                 count(*) filter (where o.text is null)::int as unreadable,
                 coalesce(jsonb_agg(jsonb_build_object('sessionId', o.session_id, 'utteranceId', o.id, 'text', o.text) order by o.newest)
                            filter (where o.newest <= ${QUOTES_LIMIT}::int), '[]'::jsonb) as quotes
            from (select b.*, row_number() over (partition by b.question_id, b.text is null order by b.created_at desc, b.id desc) as newest
                    from (select distinct on (u.question_id, u.session_id) u.question_id, u.session_id, u.id, nullif(btrim(u.text), '') as text, u.created_at
                            from sessions s
                            join session_utterances u on u.session_id = s.id
                            join open_questions oq on oq.script_id = s.script_id and oq.version = s.script_version and oq.question_id = u.question_id
                           where ${kept} and u.organization_id = ${organizationId} and u.speaker = 'participant' and u.kind = 'answer'
                           order by u.question_id, u.session_id, length(nullif(btrim(u.text), '')) desc nulls last, u.seq) b) o
           group by o.question_id`;
  },
  example: resultsExample,
});

/** The participants' feedback on the kept sessions: counts, mean ratings, and the newest comments. */
export const campaignResultFeedback = defineQuery({
  columns: {
    count: 'integer',
    overall: 'double precision | null',
    ease_of_use: 'double precision | null',
    audio_quality: 'double precision | null',
    question_clarity: 'double precision | null',
    yes: 'integer',
    no: 'integer',
    comments: 'jsonb',
  },
  statement: ({ organizationId, campaignId, filter }: ResultsScope) => {
    const kept = keptSessionsWhere(organizationId, campaignId, filter);
    return sql`select count(*)::int as count,
                 avg(f.overall_rating)::float8 as overall,
                 avg(f.ease_of_use_rating)::float8 as ease_of_use,
                 avg(f.audio_quality_rating)::float8 as audio_quality,
                 avg(f.question_clarity_rating)::float8 as question_clarity,
                 count(*) filter (where f.would_recommend)::int as yes,
                 count(*) filter (where not f.would_recommend)::int as no,
                 coalesce((select jsonb_agg(to_jsonb(c) order by c."submittedAt" desc, c."sessionId")
                             from (select f2.session_id as "sessionId", coalesce(s.participant_name, s.participant_email) as participant,
                                          f2.overall_rating as "overallRating", nullif(btrim(f2.comments), '') as comments,
                                          nullif(btrim(f2.technical_issues), '') as "technicalIssues", ${rawSql(isoTimestamp('f2.submitted_at'))} as "submittedAt"
                                     from session_feedback f2 join sessions s on s.id = f2.session_id
                                    where f2.organization_id = ${organizationId} and ${kept}
                                      and (nullif(btrim(f2.comments), '') is not null or nullif(btrim(f2.technical_issues), '') is not null)
                                    order by f2.submitted_at desc, f2.session_id limit ${COMMENTS_LIMIT}::int) c), '[]'::jsonb) as comments
            from session_feedback f join sessions s on s.id = f.session_id
           where f.organization_id = ${organizationId} and ${kept}`;
  },
  example: resultsExample,
});

/** A page of the kept sessions, newest first, each row with the filter's total. */
export const campaignResultSessionsPage = defineQuery({
  columns: {
    id: 'text',
    participant: 'text | null',
    status: 'text',
    completionStatus: 'text | null',
    language: 'text',
    createdAt: 'text',
    startedAt: 'text | null',
    duration: 'integer',
    sentiment: 'text | null',
    segment: 'jsonb',
    total: 'integer',
  },
  statement: ({ organizationId, campaignId, filter, limit, offset }: ResultsScope & { limit: number; offset: number }) =>
    sql`select s.id, coalesce(s.participant_name, s.participant_email) as participant, s.status, s.completion_status as "completionStatus",
               s.language, ${rawSql(isoTimestamp('s.created_at'))} as "createdAt",
               case when s.started_at is null then null else ${rawSql(isoTimestamp('s.started_at'))} end as "startedAt",
               s.duration_seconds as duration, s.sentiment, s.metadata as segment, count(*) over ()::int as total
          from sessions s
         where ${keptSessionsWhere(organizationId, campaignId, filter)}
         order by s.created_at desc, s.id desc
         limit ${limit}::int offset ${offset}::int`,
  example: { ...resultsExample, limit: 20, offset: 0 },
});

/** How many sessions the filter keeps (past the last page no row carries the total). */
export const campaignResultSessionsTotal = defineQuery({
  columns: { total: 'integer' },
  statement: ({ organizationId, campaignId, filter }: ResultsScope) =>
    sql`select count(*)::int as total from sessions s where ${keptSessionsWhere(organizationId, campaignId, filter)}`,
  example: resultsExample,
});
