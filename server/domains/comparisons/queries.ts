import type { TComparisonSegmentInput } from '../../../shared/schemas/comparisons.js';
import { defineQuery } from '../../db/query.js';
import { joinSql, type Sql, sql } from '../../db/sql.js';

/**
 * `(segment, id, status, completion_status, duration_seconds, answers, script_id, script_version)`
 * of every session of every segment, as one `union all` (a session in two segments counts in
 * both). Used as a CTE by each query of the report, so each aspect is one statement over all
 * segments, never one per segment or per session.
 */
function segmentSessionsSql(organizationId: string, segments: TComparisonSegmentInput[]): Sql {
  const selects = segments.map((segment, index) => {
    // Previews ("Preview as participant") are never results.
    const conditions: Sql[] = [
      sql`s.organization_id = ${organizationId}`,
      sql`s.campaign_id = ${segment.campaignId}`,
      sql`s.started_at is not null`,
      sql`not s.preview`,
    ];
    if (segment.from) conditions.push(sql`s.started_at >= ${segment.from}::timestamptz`);
    if (segment.to) conditions.push(sql`s.started_at < ${segment.to}::timestamptz`);
    if (segment.completionStatus) {
      conditions.push(sql`s.completion_status in (select jsonb_array_elements_text(${JSON.stringify(segment.completionStatus)}::jsonb))`);
    }
    if (segment.metadata && Object.keys(segment.metadata).length > 0) conditions.push(sql`s.metadata @> ${JSON.stringify(segment.metadata)}::jsonb`);
    if (segment.language) {
      // A tag is letters, digits and hyphens (ZLanguageTag): nothing in it is a LIKE wildcard.
      conditions.push(sql`(lower(s.language) = lower(${segment.language}) or lower(s.language) like lower(${segment.language}) || '-%')`);
    }
    return sql`select ${index}::int as segment, s.id, s.status, s.completion_status, s.duration_seconds, s.answers, s.script_id, s.script_version
      from sessions s where ${joinSql(conditions, ' and ')}`;
  });
  return joinSql(selects, ' union all ');
}

interface SegmentsParams {
  organizationId: string;
  segments: TComparisonSegmentInput[];
}

/** Every filter a segment may have, and a second segment without any: the check plans both shapes of the union. */
const segmentsExample: SegmentsParams = {
  organizationId: 'org_example',
  segments: [
    {
      campaignId: 'cmp_example',
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-02-01T00:00:00.000Z',
      completionStatus: ['completed'],
      metadata: { plan: 'pro' },
      language: 'en',
    },
    { campaignId: 'cmp_other' },
  ],
};

/** The compared campaigns of the organization, with their script's published version. */
export const comparedCampaigns = defineQuery({
  columns: { id: 'text', name: 'text', script_id: 'text', published_version: 'integer | null' },
  statement: ({ organizationId, campaignIds }: { organizationId: string; campaignIds: string[] }) =>
    sql`select c.id, c.name, c.script_id, sc.published_version
          from campaigns c join scripts sc on sc.id = c.script_id
         where c.organization_id = ${organizationId} and not c.preview and c.id in (select jsonb_array_elements_text(${JSON.stringify(campaignIds)}::jsonb))`,
  example: { organizationId: 'org_example', campaignIds: ['cmp_example'] },
});

/** Each segment's session counts by outcome, completed durations, and the script versions its sessions followed. */
export const segmentStats = defineQuery({
  columns: {
    segment: 'integer',
    started: 'integer',
    completed: 'integer',
    timed_out: 'integer',
    abandoned: 'integer',
    in_progress: 'integer',
    measured: 'integer',
    mean: 'double precision | null',
    median: 'double precision | null',
    p90: 'double precision | null',
    versions: 'jsonb',
  },
  statement: ({ organizationId, segments }: SegmentsParams) =>
    sql`with seg as (${segmentSessionsSql(organizationId, segments)})
          select segment,
                 count(*)::int as started,
                 count(*) filter (where status = 'completed')::int as completed,
                 count(*) filter (where completion_status = 'timed_out')::int as timed_out,
                 count(*) filter (where status = 'abandoned')::int as abandoned,
                 count(*) filter (where status in ('created', 'in_progress', 'paused'))::int as in_progress,
                 count(*) filter (where status = 'completed')::int as measured,
                 (avg(duration_seconds) filter (where status = 'completed'))::float8 as mean,
                 percentile_cont(0.5) within group (order by duration_seconds) filter (where status = 'completed') as median,
                 percentile_cont(0.9) within group (order by duration_seconds) filter (where status = 'completed') as p90,
                 jsonb_agg(distinct jsonb_build_array(script_id, script_version)) as versions
            from seg group by segment`,
  example: segmentsExample,
});

/** How many participant utterances of each segment have each effective sentiment (a researcher's override wins). */
export const segmentSentiments = defineQuery({
  columns: { segment: 'integer', sentiment: 'text | null', count: 'integer' },
  statement: ({ organizationId, segments }: SegmentsParams) =>
    sql`with seg as (${segmentSessionsSql(organizationId, segments)})
          select seg.segment, coalesce(u.sentiment_override, u.sentiment) as sentiment, count(*)::int as count
            from seg join session_utterances u on u.session_id = seg.id
           where u.speaker = 'participant' and u.text is not null
           group by 1, 2`,
  example: segmentsExample,
});

/** How many sessions of each segment gave each value to each question. */
export const segmentAnswers = defineQuery({
  columns: { segment: 'integer', question_id: 'text', value: 'jsonb', count: 'integer' },
  statement: ({ organizationId, segments }: SegmentsParams) =>
    sql`with seg as (${segmentSessionsSql(organizationId, segments)})
          select seg.segment, a.answer->>'questionId' as question_id, a.answer->'value' as value, count(*)::int as count
            from seg cross join lateral jsonb_array_elements(seg.answers) as a(answer)
           group by 1, 2, 3`,
  example: segmentsExample,
});

/** The questions of the given `[scriptId, version]` pairs, of the organization's scripts. */
export const comparedScriptVersions = defineQuery({
  columns: { script_id: 'text', version: 'integer', questions: 'jsonb' },
  statement: ({ organizationId, versions }: { organizationId: string; versions: [string, number][] }) =>
    sql`select sv.script_id, sv.version, sv.questions
                from script_versions sv join scripts sc on sc.id = sv.script_id
               where sc.organization_id = ${organizationId}
                 and (sv.script_id, sv.version) in (select p->>0, (p->>1)::int from jsonb_array_elements(${JSON.stringify(versions)}::jsonb) as p)`,
  example: { organizationId: 'org_example', versions: [['scr_example', 1]] },
});
