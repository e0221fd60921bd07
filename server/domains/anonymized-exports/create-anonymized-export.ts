import type { CustomerAuth } from '../common/caller.js';
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ANONYMIZED_EXPORT_TTL_SECONDS, type TAnonymizedExport, type TCreateAnonymizedExportInput } from '../../../shared/schemas/anonymized-exports.js';
import { queryRows, sql } from '../../db/sql.js';
import { notFound, validationError } from '../../errors.js';
import { addJobs } from '../../jobs/add-jobs.js';
import { newId } from '../../lib/ids.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import type { Logger } from '../../logger.js';
import { deleteFilesJob } from '../../storage/delete-unrecorded-files.js';
import type { FileStorage } from '../../storage/file-storage.js';

import { authorOf } from '../common/author.js';
import { loadProject } from '../projects/index.js';
import { anonymizedFile, type ExportedCampaign, type Tally } from './anonymized-file.js';
import type { AnonymizedScope } from './anonymized-sessions.js';

export interface AnonymizedExportServices {
  storage: FileStorage;
  signer: UrlSigner;
  logger: Pick<Logger, 'warn'>;
}

/** The campaigns and sessions the input names, all of the caller's organization (404 naming the field otherwise). */
async function resolveScope(em: EntityManager, organizationId: string, input: TCreateAnonymizedExportInput): Promise<{ scope: AnonymizedScope; campaigns: ExportedCampaign[]; stored: unknown }> {
  if (input.campaignId !== undefined) {
    const campaigns = await queryRows<ExportedCampaign>(em, sql`select id, name from campaigns where id = ${input.campaignId} and organization_id = ${organizationId} and not preview`);
    if (campaigns.length === 0) throw notFound('campaign', input.campaignId, 'campaignId');
    return { scope: { organizationId, campaignIds: [input.campaignId] }, campaigns, stored: { type: 'campaign', id: input.campaignId } };
  }
  if (input.projectId !== undefined) {
    const project = await loadProject(em, { organizationId }, { projectId: input.projectId, fieldPath: 'projectId' });
    const campaigns = await queryRows<ExportedCampaign>(em, sql`select id, name from campaigns where project_id = ${project.id} and organization_id = ${organizationId} and not preview order by created_at, id`);
    return { scope: { organizationId, campaignIds: campaigns.map((campaign) => campaign.id) }, campaigns, stored: { type: 'project', id: project.id } };
  }
  const sessionIds = [...new Set(input.sessionIds!)];
  const rows = await queryRows<{ id: string; status: string; campaign_id: string }>(
    em,
    // A preview is not a result to export: 404 like an unknown id.
    sql`select id, status, campaign_id from sessions where organization_id = ${organizationId} and not preview and id in (select jsonb_array_elements_text(${JSON.stringify(sessionIds)}::jsonb))`,
  );
  const found = new Map(rows.map((row) => [row.id, row]));
  const missing = input.sessionIds!.findIndex((id) => !found.has(id));
  if (missing !== -1) throw notFound('session', input.sessionIds![missing]!, `sessionIds[${missing}]`);
  const unfinished = input.sessionIds!.map((id, index) => ({ index, row: found.get(id)! })).filter(({ row }) => row.status !== 'completed' && row.status !== 'abandoned');
  if (unfinished.length > 0) {
    throw validationError(unfinished.map(({ index, row }) => ({ path: `sessionIds[${index}]`, message: `is ${row.status}; only finished sessions are exported` })));
  }
  const campaigns = await queryRows<ExportedCampaign>(
    em,
    sql`select id, name from campaigns where organization_id = ${organizationId} and id in (select jsonb_array_elements_text(${JSON.stringify([...new Set(rows.map((row) => row.campaign_id))])}::jsonb)) order by created_at, id`,
  );
  return { scope: { organizationId, sessionIds }, campaigns, stored: { type: 'sessions', count: sessionIds.length } };
}

/**
 * Expired exports are deleted when the organization makes its next one (their links no longer open
 * them anyway): the records and, in the same transaction, the job that deletes their files.
 */
async function deleteExpired(em: EntityManager, organizationId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const expired = await queryRows<{ storage_key: string }>(tx, sql`delete from anonymized_exports where organization_id = ${organizationId} and expires_at <= now() returning storage_key`);
    if (expired.length > 0) await addJobs(tx, [deleteFilesJob(expired.map((row) => row.storage_key))]);
  });
}

/**
 * `anonymizedExports.create`: the finished sessions of a campaign, a project or a list, without
 * their participants' identity (see anonymizedSessions), written through the file storage as it
 * is read (streamed: memory stays flat in the number of sessions), recorded, and answered as a
 * signed link valid one hour.
 */
export async function createAnonymizedExport(em: EntityManager, services: AnonymizedExportServices, auth: CustomerAuth, input: TCreateAnonymizedExportInput): Promise<TAnonymizedExport> {
  const { scope, campaigns, stored } = await resolveScope(em, auth.organizationId, input);
  const actor = await authorOf(em, auth);
  await deleteExpired(em, auth.organizationId);

  const id = newId('anx');
  const storageKey = `anonymized-exports/${auth.organizationId}/${id}.${input.format}`;
  const tally: Tally = { sessions: 0 };
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const content = anonymizedFile(em, scope, campaigns, input.format, tally);
  content.on('error', (error) => hashing.destroy(error));
  const { size } = await services.storage.put(storageKey, content.pipe(hashing));
  try {
    const [row] = await queryRows<{ expires_at: Date }>(
      em,
      sql`insert into anonymized_exports (id, organization_id, format, scope, session_count, storage_key, size_bytes, sha256, created_by_kind, created_by_id, created_by_name, created_at, expires_at)
          values (${id}, ${auth.organizationId}, ${input.format}, ${JSON.stringify(stored)}::jsonb, ${tally.sessions}, ${storageKey}, ${size}, ${hash.digest('hex')},
                  ${actor.kind}, ${actor.id}, ${actor.name}, now(), now() + make_interval(secs => ${ANONYMIZED_EXPORT_TTL_SECONDS}))
          returning expires_at`,
    );
    const link = await services.signer.signFileLink({ fileId: id, purpose: 'anonymized_export' }, ANONYMIZED_EXPORT_TTL_SECONDS);
    // The link never outlives the record: whichever ends first ends the download.
    const expiresAt = new Date(Math.min(link.expiresAt.getTime(), new Date(row!.expires_at).getTime()));
    return { id, url: link.url, expiresAt: expiresAt.toISOString(), format: input.format, sessionCount: tally.sessions, size };
  } catch (error) {
    // Not recorded: nothing would ever delete the file.
    await services.storage.delete(storageKey).catch(() => undefined);
    throw error;
  }
}
