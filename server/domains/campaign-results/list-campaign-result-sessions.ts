import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaignResultSessionsInput, TResultsSession, TResultsSessionPage } from '../../../shared/schemas/campaign-results.js';
import { isoTimestamp, queryRows, rawSql, sql } from '../../db/sql.js';
import { keptSessionsWhere, loadResultsCampaign } from './results-filter.js';

type SessionRow = Omit<TResultsSession, 'segment'> & { segment: Record<string, string | number | boolean>; total: number };

/**
 * The sessions behind a campaign's results under the same filter as its charts, newest first,
 * by offset (the results page pages a filtered view, not a feed). Two statements: the campaign,
 * then the page with the filter's total.
 */
export async function listCampaignResultSessions(em: EntityManager, organizationId: string, input: TCampaignResultSessionsInput): Promise<TResultsSessionPage> {
  const campaign = await loadResultsCampaign(em, organizationId, input.campaignId);
  const rows = await queryRows<SessionRow>(
    em,
    sql`select s.id, coalesce(s.participant_name, s.participant_email) as participant, s.status, s.completion_status as "completionStatus",
               s.language, ${rawSql(isoTimestamp('s.created_at'))} as "createdAt",
               case when s.started_at is null then null else ${rawSql(isoTimestamp('s.started_at'))} end as "startedAt",
               s.duration_seconds as duration, s.sentiment, s.metadata as segment, count(*) over ()::int as total
          from sessions s
         where ${keptSessionsWhere(organizationId, campaign.id, input.filter)}
         order by s.created_at desc, s.id desc
         limit ${input.limit}::int offset ${input.offset}::int`,
  );
  // Past the last page there are no rows to carry the total: count it alone.
  const total =
    rows[0]?.total ??
    (input.offset === 0
      ? 0
      : (await queryRows<{ total: number }>(em, sql`select count(*)::int as total from sessions s where ${keptSessionsWhere(organizationId, campaign.id, input.filter)}`))[0]!.total);
  return {
    data: rows.map(({ total: _total, segment, ...row }) => ({
      ...row,
      segment: Object.fromEntries(Object.entries(segment).map(([key, value]) => [key, String(value)])),
    })),
    pagination: { total, limit: input.limit, offset: input.offset, hasMore: input.offset + rows.length < total, nextCursor: null },
  };
}
