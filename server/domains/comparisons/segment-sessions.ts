import type { TComparisonSegmentInput } from '../../../shared/schemas/comparisons.js';
import { joinSql, type Sql, sql } from '../../db/sql.js';

/**
 * `(segment, id, status, completion_status, duration_seconds, answers, script_id, script_version)`
 * of every session of every segment, as one `union all` (a session in two segments counts in
 * both). Used as a CTE by each query of the report, so each aspect is one statement over all
 * segments, never one per segment or per session.
 */
export function segmentSessionsSql(organizationId: string, segments: TComparisonSegmentInput[]): Sql {
  const selects = segments.map((segment, index) => {
    // Previews ("Preview as participant") are never results.
    const conditions: Sql[] = [sql`s.organization_id = ${organizationId}`, sql`s.campaign_id = ${segment.campaignId}`, sql`s.started_at is not null`, sql`not s.preview`];
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
