import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ZPdfQuery } from '../../../shared/schemas/transcripts.js';
import type { Logger } from '../../logger.js';
import { deleteSessionFile, lockTranscript, replaceExportFile, sessionExportFiles } from './queries.js';
import { Session } from '../../entities/index.js';
import { randomBase62 } from '../../lib/ids.js';
import { sha256OfFile } from '../../lib/sha256-file.js';
import type { OrganizationLogos } from '../../reports/organization-logos.js';
import type { ReportRenderer } from '../../reports/report-renderer.js';
import type { FileStorage } from '../../storage/file-storage.js';
import { buildSessionReport, loadSessionReportSource } from '../reports/index.js';
import { findInsights } from '../insights/index.js';
import { structuredQuestionIdsOf, readSessionUtterances, FULL_TRANSCRIPT, shapeTranscript, type TranscriptSource } from '../transcripts/index.js';

/** The transcript as the redaction's transaction sees it, its queries one after another on that one connection. */
async function redactedSource(tx: EntityManager, session: Session): Promise<TranscriptSource> {
  const rows = await readSessionUtterances(tx, session.id);
  return {
    sessionId: session.id,
    language: session.language,
    durationSeconds: session.durationSeconds,
    generatedAt: session.transcriptGeneratedAt!,
    structuredQuestionIds: await structuredQuestionIdsOf(tx, session),
    rows,
  };
}

/** The stored report is the one `GET …/pdf` answers without options (as session__prepare_files made it). */
const REPORT_OPTIONS = ZPdfQuery.parse({});

export interface ExportServices {
  storage: FileStorage;
  logos: Pick<OrganizationLogos, 'fetch'>;
  /** The PDF report, rendered off the event loop. */
  reports: Pick<ReportRenderer, 'render'>;
}

/**
 * Changes to a session's stored transcript (redactions, sentiment overrides) run one after another
 * (a transaction-scoped advisory lock, taken first in the transaction): each makes the stored
 * exports again from what it reads, so two at once would store one built without the other's change.
 */
export async function lockSessionTranscript(tx: EntityManager, sessionId: string): Promise<void> {
  await lockTranscript.rows(tx, { sessionId });
}

/** What a change to a session's transcript works with: its transaction, a scratch directory, and the storage keys it has written. */
export interface TranscriptChange {
  tx: EntityManager;
  work: string;
  /** Keys of the files the change stored: deleted again if its transaction rolls back. */
  written: string[];
}

/**
 * Runs a change to one session's stored transcript (a redaction, a sentiment override): in one
 * transaction that takes the session's transcript lock first, with a scratch directory for the
 * files it makes. If the transaction rolls back, the files it wrote name no record and are deleted
 * (best effort; the orphan sweep takes what is left); the directory always goes.
 */
export async function changeSessionTranscript<T>(
  em: EntityManager,
  services: Pick<ExportServices, 'storage'> & { logger: Pick<Logger, 'warn'> },
  sessionId: string,
  change: (step: TranscriptChange) => Promise<T>,
): Promise<T> {
  const work = await mkdtemp(path.join(tmpdir(), 'interview-transcript-change-'));
  const written: string[] = [];
  try {
    return await em.transactional(async (tx) => {
      await lockSessionTranscript(tx, sessionId);
      return change({ tx, work, written });
    });
  } catch (error) {
    for (const key of written) {
      await services.storage.delete(key).catch((failure: unknown) => {
        services.logger.warn(
          { key, err: failure instanceof Error ? { name: failure.name, message: failure.message } : failure },
          'a file written for a rolled-back transcript change could not be deleted',
        );
      });
    }
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** What a rewrite did: the files rewritten or deleted, the storage keys it replaced (to delete once the transaction commits) and those it wrote (to delete on rollback). */
export interface RewrittenExports {
  rewritten: string[];
  deleted: string[];
  obsoleteKeys: string[];
  writtenKeys: string[];
}

/**
 * The session's stored exports (`export` files: the transcript JSON and the PDF report that
 * session__prepare_files made) made again from the changed rows, read through the change's own
 * transaction (under lockSessionTranscript), each under a new key, their records swapped over. The
 * session record is read again in that transaction too: the caller's copy was loaded before it and
 * misses what the transaction wrote (scrubbed answers, a recomputed sentiment). An export this does
 * not know how to make again is deleted rather than left holding the old words. The caller deletes
 * `obsoleteKeys` through deleteReplacedFilesJob in the same transaction.
 */
export async function rewriteSessionExports(
  em: EntityManager,
  tx: EntityManager,
  services: ExportServices,
  sessionId: string,
  work: string,
): Promise<RewrittenExports> {
  const files = await sessionExportFiles.rows(tx, { sessionId });
  const outcome: RewrittenExports = { rewritten: [], deleted: [], obsoleteKeys: [], writtenKeys: [] };
  if (files.length === 0) return outcome;
  const session = await tx.findOneOrFail(Session, sessionId, { disableIdentityMap: true });
  const source = session.transcriptStatus === 'ready' ? await redactedSource(tx, session) : null;
  const prefix = `sessions/${session.organization.id}/${session.id}`;
  for (const file of files) {
    let made: string | null = null;
    if (source && file.name === `transcript-${session.id}.json`) {
      made = path.join(work, `transcript-${file.id}.json`);
      await writeFile(made, JSON.stringify(shapeTranscript(source, FULL_TRANSCRIPT), null, 2));
    } else if (source && file.name === `report-${session.id}.pdf`) {
      made = path.join(work, `report-${file.id}.pdf`);
      // What a redaction cannot change is read outside the transaction (its connection takes one query at a time); the insights inside it.
      const reportSource = {
        ...(await loadSessionReportSource(em, services.logos, session, source, { ...REPORT_OPTIONS, include_insights: false })),
        insights: await findInsights(tx, session.id),
      };
      await writeFile(made, await services.reports.render(buildSessionReport(reportSource, REPORT_OPTIONS), REPORT_OPTIONS));
    }
    outcome.obsoleteKeys.push(file.storage_key);
    if (!made) {
      await deleteSessionFile.rows(tx, { fileId: file.id });
      outcome.deleted.push(file.id);
      continue;
    }
    const storageKey = `${prefix}/${file.id}-${randomBase62(12)}`;
    const sha256 = await sha256OfFile(made);
    outcome.writtenKeys.push(storageKey);
    const { size } = await services.storage.put(storageKey, createReadStream(made));
    await replaceExportFile.rows(tx, { fileId: file.id, storageKey, size, sha256 });
    outcome.rewritten.push(file.id);
  }
  return outcome;
}
