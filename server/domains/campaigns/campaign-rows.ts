import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign, TListCampaignsInput } from '../../../shared/schemas/campaigns.js';
import type { Page } from '../../../shared/schemas/common.js';
import { isoTimestamp, queryRows, rawSql, type Sql, sql } from '../../db/sql.js';
import { cursorAfter } from '../common/keyset-page.js';
import { containsPattern } from '../common/pagination.js';

/**
 * Campaigns read as rows, with their stats, in one statement (the hot read path: see
 * `server/db/sql.ts`). Statistics are computed from invite and session rows at read time (never
 * stored counters that drift): invites, completed sessions (timed out ones included) and their
 * average duration in whole seconds.
 */
interface CampaignRow {
  id: string;
  project_id: string | null;
  script_id: string;
  name: string;
  participant_title: string | null;
  description: string | null;
  status: TCampaign['status'];
  settings: TCampaign['settings'];
  invite_defaults: TCampaign['inviteDefaults'];
  metadata: TCampaign['metadata'];
  created_at: string;
  updated_at: string;
  total_invites: string | null;
  completed: string | null;
  average_duration: string | null;
}

const COLUMNS = rawSql(
  `c.id, c.project_id, c.script_id, c.name, c.participant_title, c.description, c.status, c.settings, c.invite_defaults, c.metadata, ${isoTimestamp('c.created_at')} as created_at, ${isoTimestamp('c.updated_at')} as updated_at`,
);

/** The stats of each row of `page` (aliased p), joined laterally so only the page's rows are counted. */
const WITH_STATS = rawSql(`
  left join lateral (select count(*) as total_invites from invites i where i.campaign_id = p.id) as invited on true
  left join lateral (
    select count(*) as completed, avg(s.duration_seconds) as average_duration
    from sessions s where s.campaign_id = p.id and s.status = 'completed' and not s.preview
  ) as finished on true`);

export function campaignDtoFromRow(row: CampaignRow): TCampaign {
  return {
    id: row.id,
    name: row.name,
    participantTitle: row.participant_title,
    description: row.description,
    scriptId: row.script_id,
    projectId: row.project_id,
    status: row.status,
    settings: row.settings,
    inviteDefaults: row.invite_defaults,
    metadata: row.metadata,
    stats: {
      totalInvites: Number(row.total_invites ?? 0),
      completedSessions: Number(row.completed ?? 0),
      averageDuration: Math.round(Number(row.average_duration ?? 0)),
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The organization's campaigns of `ids` with their stats, in the order of `ids` (missing ones left out). */
export async function findCampaignsWithStats(em: EntityManager, organizationId: string, ids: readonly string[]): Promise<TCampaign[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<CampaignRow>(
    em,
    sql`select p.*, invited.total_invites, finished.completed, finished.average_duration
        from (select ${COLUMNS} from campaigns c
              where c.organization_id = ${organizationId} and not c.preview and c.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))) as p ${WITH_STATS}`,
  );
  const byId = new Map(rows.map((row) => [row.id, campaignDtoFromRow(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One campaign of the organization with its stats, or undefined. */
export async function findCampaignWithStats(em: EntityManager, organizationId: string, campaignId: string): Promise<TCampaign | undefined> {
  const [campaign] = await findCampaignsWithStats(em, organizationId, [campaignId]);
  return campaign;
}

const SORT_COLUMNS: Record<TListCampaignsInput['sort'], string> = { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' };

/**
 * A page by offset in one statement: the page (sorted, the id breaking ties), the total of the
 * filters (a window count), the last row's sort value for `nextCursor`, and the page's stats.
 * A page past the end has no row to carry the total: then it is counted on its own.
 */
export async function listCampaignRows(em: EntityManager, organizationId: string, input: TListCampaignsInput): Promise<Page<TCampaign>> {
  const column = SORT_COLUMNS[input.sort];
  const direction = rawSql(input.order === 'asc' ? 'asc' : 'desc');
  // A script's hidden preview campaign is never listed.
  const filters: Sql[] = [sql`c.organization_id = ${organizationId}`, sql`not c.preview`];
  if (input.status) filters.push(sql`c.status = ${input.status}`);
  if (input.projectId) filters.push(sql`c.project_id = ${input.projectId}`);
  if (input.search) filters.push(sql`c.name ilike ${containsPattern(input.search)}`);
  const where = filters.reduce((joined, filter) => sql`${joined} and ${filter}`);
  const rows = await queryRows<CampaignRow & { sort_value: string; total: string }>(
    em,
    sql`select p.*, invited.total_invites, finished.completed, finished.average_duration
        from (
          select ${COLUMNS}, c.${rawSql(column)}::text as sort_value, count(*) over () as total
          from campaigns c where ${where}
          order by c.${rawSql(column)} ${direction}, c.id ${direction}
          limit ${input.limit} offset ${input.offset}
        ) as p ${WITH_STATS}
        order by p.${rawSql(column)} ${direction}, p.id ${direction}`,
  );
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && input.offset > 0) {
    const [counted] = await queryRows<{ total: string }>(em, sql`select count(*) as total from campaigns c where ${where}`);
    total = Number(counted?.total ?? 0);
  }
  const hasMore = input.offset + rows.length < total;
  const last = rows.at(-1);
  return {
    data: rows.map(campaignDtoFromRow),
    pagination: { total, limit: input.limit, offset: input.offset, hasMore, nextCursor: hasMore && last ? cursorAfter(last.sort_value, last.id) : null },
  };
}
