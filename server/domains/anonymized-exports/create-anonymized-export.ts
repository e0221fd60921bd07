import type { CustomerAuth } from '../common/caller.js';
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ANONYMIZED_EXPORT_TTL_SECONDS, type TAnonymizedExport, type TCreateAnonymizedExportInput } from '../../../shared/schemas/anonymized-exports.js';
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
import { campaignsOfSessions, deleteExpiredExports, exportedCampaign, exportedProjectCampaigns, insertAnonymizedExport, listedSessions } from './queries.js';

export interface AnonymizedExportServices {
  storage: FileStorage;
  signer: UrlSigner;
  logger: Pick<Logger, 'warn'>;
}

/** The campaigns and sessions the input names, all of the caller's organization (404 naming the field otherwise). */
async function resolveScope(
  em: EntityManager,
  organizationId: string,
  input: TCreateAnonymizedExportInput,
): Promise<{ scope: AnonymizedScope; campaigns: ExportedCampaign[]; stored: unknown }> {
  if (input.campaignId !== undefined) {
    const campaigns = await exportedCampaign.rows(em, { organizationId, campaignId: input.campaignId });
    if (campaigns.length === 0) throw notFound('campaign', input.campaignId, 'campaignId');
    return { scope: { organizationId, campaignIds: [input.campaignId] }, campaigns, stored: { type: 'campaign', id: input.campaignId } };
  }
  if (input.projectId !== undefined) {
    const project = await loadProject(em, { organizationId }, { projectId: input.projectId, fieldPath: 'projectId' });
    const campaigns = await exportedProjectCampaigns.rows(em, { organizationId, projectId: project.id });
    return { scope: { organizationId, campaignIds: campaigns.map((campaign) => campaign.id) }, campaigns, stored: { type: 'project', id: project.id } };
  }
  const sessionIds = [...new Set(input.sessionIds!)];
  // A preview is not a result to export: 404 like an unknown id.
  const rows = await listedSessions.rows(em, { organizationId, sessionIds });
  const found = new Map(rows.map((row) => [row.id, row]));
  const missing = input.sessionIds!.findIndex((id) => !found.has(id));
  if (missing !== -1) throw notFound('session', input.sessionIds![missing]!, `sessionIds[${missing}]`);
  const unfinished = input
    .sessionIds!.map((id, index) => ({ index, row: found.get(id)! }))
    .filter(({ row }) => row.status !== 'completed' && row.status !== 'abandoned');
  if (unfinished.length > 0) {
    throw validationError(
      unfinished.map(({ index, row }) => ({ path: `sessionIds[${index}]`, message: `is ${row.status}; only finished sessions are exported` })),
    );
  }
  const campaigns = await campaignsOfSessions.rows(em, { organizationId, campaignIds: [...new Set(rows.map((row) => row.campaign_id))] });
  return { scope: { organizationId, sessionIds }, campaigns, stored: { type: 'sessions', count: sessionIds.length } };
}

/**
 * Expired exports are deleted when the organization makes its next one (their links no longer open
 * them anyway): the records and, in the same transaction, the job that deletes their files.
 */
async function deleteExpired(em: EntityManager, organizationId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const expired = await deleteExpiredExports.rows(tx, { organizationId });
    if (expired.length > 0) await addJobs(tx, [deleteFilesJob(expired.map((row) => row.storage_key))]);
  });
}

/**
 * `anonymizedExports.create`: the finished sessions of a campaign, a project or a list, without
 * their participants' identity (see anonymizedSessions), written through the file storage as it
 * is read (streamed: memory stays flat in the number of sessions), recorded, and answered as a
 * signed link valid one hour.
 */
export async function createAnonymizedExport(
  { em, services }: { em: EntityManager; services: AnonymizedExportServices },
  auth: CustomerAuth,
  input: TCreateAnonymizedExportInput,
): Promise<TAnonymizedExport> {
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
    const row = await insertAnonymizedExport.first(em, {
      id,
      organizationId: auth.organizationId,
      format: input.format,
      scope: stored,
      sessionCount: tally.sessions,
      storageKey,
      size,
      sha256: hash.digest('hex'),
      author: actor,
    });
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
