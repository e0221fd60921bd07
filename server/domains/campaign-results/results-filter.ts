import type { TResultsFilter } from '../../../shared/schemas/campaign-results.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { joinSql, queryRows, type Sql, sql } from '../../db/sql.js';
import { notFound } from '../../errors.js';

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
  if (filter.language) conditions.push(languageCondition(sql`coalesce(i.language, c.settings ->> 'language', sv.settings ->> 'language', '')`, filter.language));
  if (filter.from) conditions.push(sql`i.created_at >= ${filter.from}::timestamptz`);
  if (filter.to) conditions.push(sql`i.created_at < ${filter.to}::timestamptz`);
  return joinSql(conditions, ' and ');
}

export interface ResultsCampaign {
  id: string;
  script_id: string;
  published_version: number | null;
}

/** The campaign of this organization (never a preview one), or RESOURCE_NOT_FOUND naming `campaignId`. */
export async function loadResultsCampaign(em: EntityManager, organizationId: string, campaignId: string): Promise<ResultsCampaign> {
  const [campaign] = await queryRows<ResultsCampaign>(
    em,
    sql`select c.id, c.script_id, sc.published_version
          from campaigns c join scripts sc on sc.id = c.script_id
         where c.id = ${campaignId} and c.organization_id = ${organizationId} and not c.preview`,
  );
  if (!campaign) throw notFound('campaign', campaignId, 'campaignId');
  return campaign;
}
