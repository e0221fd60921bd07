import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign, TListCampaignsInput } from '../../../shared/schemas/campaigns.js';
import type { Page } from '../../../shared/schemas/common.js';
import type { RowOf } from '../../db/query.js';
import type { OrganizationScope } from '../common/caller.js';
import { cursorAfter } from '../common/keyset-page.js';
import { containsPattern } from '../common/pagination.js';
import { type CAMPAIGN_COLUMNS, campaignCount, campaignPage, campaignsWithStats, type STATS_COLUMNS } from './queries.js';

/**
 * Campaigns read as rows, with their stats, in one statement (the hot read path: see
 * `server/db/sql.ts`). Statistics are computed from invite and session rows at read time (never
 * stored counters that drift): invites, completed sessions (timed out ones included) and their
 * average duration in whole seconds.
 */
export type CampaignRow = RowOf<typeof CAMPAIGN_COLUMNS> & Partial<RowOf<typeof STATS_COLUMNS>>;

export function campaignDtoFromRow(row: CampaignRow): TCampaign {
  return {
    id: row.id,
    name: row.name,
    participantTitle: row.participant_title,
    description: row.description,
    scriptId: row.script_id,
    projectId: row.project_id,
    // The columns hold what the schema allows (check constraints, and jsonb written from the same schemas).
    status: row.status as TCampaign['status'],
    settings: row.settings as TCampaign['settings'],
    inviteDefaults: row.invite_defaults as TCampaign['inviteDefaults'],
    metadata: row.metadata as TCampaign['metadata'],
    stats: {
      totalInvites: Number(row.total_invites ?? 0),
      completedSessions: Number(row.completed ?? 0),
      averageDuration: Math.round(Number(row.average_duration ?? 0)),
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The scope's campaigns of `ids` with their stats, in the order of `ids` (missing ones left out). */
export async function findCampaignsWithStats(em: EntityManager, scope: OrganizationScope, input: { ids: readonly string[] }): Promise<TCampaign[]> {
  const { ids } = input;
  if (ids.length === 0) return [];
  const rows = await campaignsWithStats.rows(em, { organizationId: scope.organizationId, ids });
  const byId = new Map(rows.map((row) => [row.id, campaignDtoFromRow(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One campaign of the scope's organization with its stats, or undefined. */
export async function findCampaignWithStats(em: EntityManager, scope: OrganizationScope, input: { campaignId: string }): Promise<TCampaign | undefined> {
  const [campaign] = await findCampaignsWithStats(em, scope, { ids: [input.campaignId] });
  return campaign;
}

/**
 * A page by offset in one statement (campaignPage). A page past the end has no row to carry the
 * total: then it is counted on its own.
 */
export async function listCampaignRows(em: EntityManager, scope: OrganizationScope, input: TListCampaignsInput): Promise<Page<TCampaign>> {
  const filters = {
    organizationId: scope.organizationId,
    status: input.status,
    projectId: input.projectId,
    namePattern: input.search ? containsPattern(input.search) : undefined,
  };
  const rows = await campaignPage.rows(em, { ...filters, sort: input.sort, order: input.order, limit: input.limit, offset: input.offset });
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && input.offset > 0) {
    const counted = await campaignCount.first(em, filters);
    total = Number(counted?.total ?? 0);
  }
  const hasMore = input.offset + rows.length < total;
  const last = rows.at(-1);
  return {
    data: rows.map(campaignDtoFromRow),
    pagination: { total, limit: input.limit, offset: input.offset, hasMore, nextCursor: hasMore && last ? cursorAfter(last.sort_value, last.id) : null },
  };
}
