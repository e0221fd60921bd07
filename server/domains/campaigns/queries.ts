import { defineQuery } from '../../db/query.js';
import { isoTimestamp, rawSql, type Sql, sql } from '../../db/sql.js';
import { newId } from '../../lib/ids.js';

/**
 * A script's hidden preview campaign, made on first use (one per script: a partial unique index,
 * so a concurrent first preview shares it). Its name and the title participants see follow the
 * script's name as it is now.
 */
export const upsertPreviewCampaign = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, scriptId, scriptName }: { organizationId: string; scriptId: string; scriptName: string }) =>
    sql`insert into campaigns (id, organization_id, project_id, script_id, name, description, participant_title, preview, status, settings, invite_defaults, metadata, created_at, updated_at)
          values (${newId('cam')}, ${organizationId}, null, ${scriptId}, ${`Preview of ${scriptName}`}, null, ${scriptName}, true, 'active', '{}'::jsonb, '{}'::jsonb, '{}'::jsonb, now(), now())
          on conflict (script_id) where preview
          do update set name = excluded.name, participant_title = excluded.participant_title, status = 'active', updated_at = now()
          returning id`,
  example: { organizationId: 'org_example', scriptId: 'scr_example', scriptName: 'Example' },
});

const COLUMNS = rawSql(
  `c.id, c.project_id, c.script_id, c.name, c.participant_title, c.description, c.status, c.settings, c.invite_defaults, c.metadata, ${isoTimestamp('c.created_at')} as created_at, ${isoTimestamp('c.updated_at')} as updated_at`,
);

/** A campaign row as the answers read it (timestamps already ISO text). */
export const CAMPAIGN_COLUMNS = {
  id: 'text',
  project_id: 'text | null',
  script_id: 'text',
  name: 'text',
  participant_title: 'text | null',
  description: 'text | null',
  status: 'text',
  settings: 'jsonb',
  invite_defaults: 'jsonb',
  metadata: 'jsonb',
  created_at: 'text',
  updated_at: 'text',
} as const;

/**
 * Statistics are computed from invite and session rows at read time (never stored counters that
 * drift): invites, completed sessions (timed out ones included) and their average duration.
 */
export const STATS_COLUMNS = { total_invites: 'bigint | null', completed: 'bigint | null', average_duration: 'numeric | null' } as const;

/** The stats of each row of `page` (aliased p), joined laterally so only the page's rows are counted. */
const WITH_STATS = rawSql(`
  left join lateral (select count(*) as total_invites from invites i where i.campaign_id = p.id) as invited on true
  left join lateral (
    select count(*) as completed, avg(s.duration_seconds) as average_duration
    from sessions s where s.campaign_id = p.id and s.status = 'completed' and not s.preview
  ) as finished on true`);

/** The organization's (not preview) campaigns of `ids`, with their stats. */
export const campaignsWithStats = defineQuery({
  columns: { ...CAMPAIGN_COLUMNS, ...STATS_COLUMNS },
  statement: ({ organizationId, ids }: { organizationId: string; ids: readonly string[] }) =>
    sql`select p.*, invited.total_invites, finished.completed, finished.average_duration
        from (select ${COLUMNS} from campaigns c
              where c.organization_id = ${organizationId} and not c.preview and c.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))) as p ${WITH_STATS}`,
  example: { organizationId: 'org_example', ids: ['cam_example'] as readonly string[] },
});

export type CampaignSort = 'name' | 'createdAt' | 'updatedAt';

const SORT_COLUMNS: Record<CampaignSort, string> = { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' };

export interface CampaignFilters {
  organizationId: string;
  status?: string | undefined;
  projectId?: string | undefined;
  /** An ILIKE pattern for the name. */
  namePattern?: string | undefined;
}

/** The list's filters; a script's hidden preview campaign is never listed. */
function campaignFilters(filters: CampaignFilters): Sql {
  const parts: Sql[] = [sql`c.organization_id = ${filters.organizationId}`, sql`not c.preview`];
  if (filters.status) parts.push(sql`c.status = ${filters.status}`);
  if (filters.projectId) parts.push(sql`c.project_id = ${filters.projectId}`);
  if (filters.namePattern) parts.push(sql`c.name ilike ${filters.namePattern}`);
  return parts.reduce((joined, filter) => sql`${joined} and ${filter}`);
}

/**
 * A page by offset in one statement: the page (sorted, the id breaking ties), the total of the
 * filters, the last row's sort value for `nextCursor`, and the page's stats.
 */
export const campaignPage = defineQuery({
  columns: { ...CAMPAIGN_COLUMNS, sort_value: 'text', total: 'bigint', ...STATS_COLUMNS },
  statement: (p: CampaignFilters & { sort: CampaignSort; order: 'asc' | 'desc'; limit: number; offset: number }) => {
    const column = rawSql(SORT_COLUMNS[p.sort]);
    const direction = rawSql(p.order === 'asc' ? 'asc' : 'desc');
    // The total is counted apart (an index-only count): a window count would read and sort every
    // matching row, wide columns and all, to return twenty (0.17 of the ceiling at 10,000 campaigns).
    return sql`select p.*, invited.total_invites, finished.completed, finished.average_duration
        from (
          select ${COLUMNS}, c.${column}::text as sort_value, (select count(*) from campaigns c where ${campaignFilters(p)}) as total
          from campaigns c where ${campaignFilters(p)}
          order by c.${column} ${direction}, c.id ${direction}
          limit ${p.limit} offset ${p.offset}
        ) as p ${WITH_STATS}
        order by p.${column} ${direction}, p.id ${direction}`;
  },
  example: {
    organizationId: 'org_example',
    status: 'active',
    projectId: 'prj_example',
    namePattern: '%a%',
    sort: 'createdAt',
    order: 'desc',
    limit: 20,
    offset: 0,
  },
});

/** How many campaigns the filters match (a page past the end has no row to carry the total). */
export const campaignCount = defineQuery({
  columns: { total: 'bigint' },
  statement: (filters: CampaignFilters) => sql`select count(*) as total from campaigns c where ${campaignFilters(filters)}`,
  example: { organizationId: 'org_example' },
});

const RETURNED = rawSql(
  `id, project_id, script_id, name, participant_title, description, status, settings, invite_defaults, metadata, ${isoTimestamp('created_at')} as created_at, ${isoTimestamp('updated_at')} as updated_at`,
);

export interface NewCampaign {
  organizationId: string;
  projectId: string | null;
  scriptId: string;
  name: string;
  participantTitle: string | null;
  description: string | null;
  settings: unknown;
  inviteDefaults: unknown;
  metadata: unknown;
}

/**
 * Inserts an active campaign from its script, which must be the organization's, not deleted or
 * archived, and published (share-locked), and from its project when one is named; no row otherwise.
 */
export const insertCampaign = defineQuery({
  columns: CAMPAIGN_COLUMNS,
  statement: (c: NewCampaign) =>
    sql`insert into campaigns (id, organization_id, project_id, script_id, name, participant_title, description, status, settings, invite_defaults, metadata, archived_at, created_at, updated_at)
          select ${newId('cam')}, s.organization_id, ${c.projectId}, s.id, ${c.name}, ${c.participantTitle}, ${c.description}, 'active',
                 ${JSON.stringify(c.settings)}::jsonb, ${JSON.stringify(c.inviteDefaults)}::jsonb, ${JSON.stringify(c.metadata)}::jsonb,
                 null, now(), now()
          from scripts s
          where s.id = ${c.scriptId} and s.organization_id = ${c.organizationId} and s.deleted_at is null
            and s.status <> 'archived' and s.published_version is not null
            and (${c.projectId}::text is null or exists (select 1 from projects p where p.id = ${c.projectId} and p.organization_id = ${c.organizationId} for share))
          for share of s
          returning ${RETURNED}`,
  example: {
    organizationId: 'org_example',
    projectId: 'prj_example' as string | null,
    scriptId: 'scr_example',
    name: 'Example',
    participantTitle: null as string | null,
    description: null as string | null,
    settings: {},
    inviteDefaults: {},
    metadata: {},
  },
});
