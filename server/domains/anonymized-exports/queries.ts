import { ANONYMIZED_EXPORT_TTL_SECONDS } from '../../../shared/schemas/anonymized-exports.js';
import { defineQuery } from '../../db/query.js';
import { sql } from '../../db/sql.js';

/** The organization's campaign, never a preview one. */
export const exportedCampaign = defineQuery({
  columns: { id: 'text', name: 'text' },
  statement: ({ organizationId, campaignId }: { organizationId: string; campaignId: string }) =>
    sql`select id, name from campaigns where id = ${campaignId} and organization_id = ${organizationId} and not preview`,
  example: { organizationId: 'org_example', campaignId: 'cmp_example' },
});

/** The project's campaigns, oldest first, never a preview one. */
export const exportedProjectCampaigns = defineQuery({
  columns: { id: 'text', name: 'text' },
  statement: ({ organizationId, projectId }: { organizationId: string; projectId: string }) =>
    sql`select id, name from campaigns where project_id = ${projectId} and organization_id = ${organizationId} and not preview order by created_at, id`,
  example: { organizationId: 'org_example', projectId: 'prj_example' },
});

/** The listed sessions of the organization that are results (a preview is not: 404 like an unknown id). */
export const listedSessions = defineQuery({
  columns: { id: 'text', status: 'text', campaign_id: 'text' },
  statement: ({ organizationId, sessionIds }: { organizationId: string; sessionIds: string[] }) =>
    sql`select id, status, campaign_id from sessions where organization_id = ${organizationId} and not preview and id in (select jsonb_array_elements_text(${JSON.stringify(sessionIds)}::jsonb))`,
  example: { organizationId: 'org_example', sessionIds: ['ses_example'] },
});

/** The campaigns of the listed sessions, oldest first. */
export const campaignsOfSessions = defineQuery({
  columns: { id: 'text', name: 'text' },
  statement: ({ organizationId, campaignIds }: { organizationId: string; campaignIds: string[] }) =>
    sql`select id, name from campaigns where organization_id = ${organizationId} and id in (select jsonb_array_elements_text(${JSON.stringify(campaignIds)}::jsonb)) order by created_at, id`,
  example: { organizationId: 'org_example', campaignIds: ['cmp_example'] },
});

/** The organization's expired exports, deleted: their files' keys. */
export const deleteExpiredExports = defineQuery({
  columns: { storage_key: 'text' },
  statement: ({ organizationId }: { organizationId: string }) =>
    sql`delete from anonymized_exports where organization_id = ${organizationId} and expires_at <= now() returning storage_key`,
  example: { organizationId: 'org_example' },
});

export interface AnonymizedExportRecord {
  id: string;
  organizationId: string;
  format: 'json' | 'csv';
  scope: unknown;
  sessionCount: number;
  storageKey: string;
  size: number;
  sha256: string;
  author: { kind: string; id: string; name: string };
}

/** A written export recorded, valid ANONYMIZED_EXPORT_TTL_SECONDS from now. */
export const insertAnonymizedExport = defineQuery({
  columns: { expires_at: 'timestamp with time zone' },
  statement: (record: AnonymizedExportRecord) =>
    sql`insert into anonymized_exports (id, organization_id, format, scope, session_count, storage_key, size_bytes, sha256, created_by_kind, created_by_id, created_by_name, created_at, expires_at)
          values (${record.id}, ${record.organizationId}, ${record.format}, ${JSON.stringify(record.scope)}::jsonb, ${record.sessionCount}, ${record.storageKey}, ${record.size}, ${record.sha256},
                  ${record.author.kind}, ${record.author.id}, ${record.author.name}, now(), now() + make_interval(secs => ${ANONYMIZED_EXPORT_TTL_SECONDS}))
          returning expires_at`,
  example: {
    id: 'anx_example',
    organizationId: 'org_example',
    format: 'json',
    scope: { type: 'campaign', id: 'cmp_example' },
    sessionCount: 1,
    storageKey: 'anonymized-exports/org_example/anx_example.json',
    size: 1,
    sha256: 'ab',
    author: { kind: 'api_key', id: 'key_example', name: 'CI' },
  } as AnonymizedExportRecord,
});

/** An export that has not expired. */
export const unexpiredAnonymizedExport = defineQuery({
  columns: { id: 'text', format: 'text', storage_key: 'text', size_bytes: 'bigint' },
  statement: ({ exportId }: { exportId: string }) =>
    sql`select id, format, storage_key, size_bytes from anonymized_exports where id = ${exportId} and expires_at > now()`,
  example: { exportId: 'anx_example' },
});
