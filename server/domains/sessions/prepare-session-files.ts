import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ZPdfQuery } from '../../../shared/schemas/transcripts.js';
import type { Config } from '../../config.js';
import { Session } from '../../entities/index.js';
import type { Logger } from '../../logger.js';
import { newId } from '../../lib/ids.js';
import { sha256OfFile } from '../../lib/sha256-file.js';
import type { OrganizationLogos } from '../../reports/organization-logos.js';
import { renderSessionReport } from '../../reports/render-session-report.js';
import { audioExtensionOf, probeAudio } from '../../speech/audio-probe.js';
import { MERGED_AUDIO, mergeAudioClips } from '../../speech/merge-audio.js';
import type { FileStorage } from '../../storage/file-storage.js';
import { buildSessionReport, loadSessionReportSource } from '../reports/assemble-session-report.js';
import { transcriptSourceOf } from '../transcripts/load-transcript.js';
import { FULL_TRANSCRIPT, shapeTranscript } from '../transcripts/shape-transcript.js';

export interface PrepareFilesServices {
  storage: FileStorage;
  ffmpeg: string | null;
  logos: Pick<OrganizationLogos, 'fetch'>;
  logger: Pick<Logger, 'warn'>;
  config: Pick<Config, 'pdfFallbackFont'>;
}

/** The stored report is the one `GET …/pdf` answers without options. */
const REPORT_OPTIONS = ZPdfQuery.parse({});

interface PreparedFile {
  kind: 'merged_audio' | 'export';
  name: string;
  contentType: string;
  storageKey: string;
  size: number;
  sha256: string;
  durationSeconds: number | null;
}

/**
 * `session__prepare_files`: the files a finished session offers besides its answers' audio: one
 * merged recording (the answers on the session's timeline) and its exports (the transcript as
 * JSON and the PDF report with the default options). Files are written under fixed keys first,
 * then recorded once in a transaction, so a retried job overwrites rather than duplicates.
 */
export async function prepareSessionFiles(em: EntityManager, services: PrepareFilesServices, sessionId: string): Promise<boolean> {
  const session = await em.findOne(Session, sessionId);
  const finished = session?.status === 'completed' || session?.status === 'abandoned';
  if (!session || !finished || !session.insightsGeneratedAt || session.filesPreparedAt) return false;
  const organizationId = session.organization.id;
  const prefix = `sessions/${organizationId}/${sessionId}`;
  const work = await mkdtemp(path.join(tmpdir(), 'interview-files-'));
  try {
    const prepared: PreparedFile[] = [];
    const merged = await mergedRecording(em, services, sessionId, work);
    if (merged) prepared.push(await store(services.storage, merged.file, { kind: 'merged_audio', name: `${sessionId}.${merged.extension}`, contentType: merged.contentType, storageKey: `${prefix}/merged-audio`, durationSeconds: merged.durationSeconds }));

    if (session.transcriptStatus === 'ready') {
      const source = await transcriptSourceOf(em, session);
      const json = path.join(work, 'transcript.json');
      await pipeline(Readable.from([JSON.stringify(shapeTranscript(source, FULL_TRANSCRIPT), null, 2)]), createWriteStream(json));
      prepared.push(await store(services.storage, json, { kind: 'export', name: `transcript-${sessionId}.json`, contentType: 'application/json', storageKey: `${prefix}/transcript.json`, durationSeconds: null }));

      const report = buildSessionReport(await loadSessionReportSource(em, services.logos, session, source, REPORT_OPTIONS), REPORT_OPTIONS);
      const pdf = path.join(work, 'report.pdf');
      await pipeline(renderSessionReport(report, REPORT_OPTIONS, { fallback: services.config.pdfFallbackFont }), createWriteStream(pdf));
      prepared.push(await store(services.storage, pdf, { kind: 'export', name: `report-${sessionId}.pdf`, contentType: 'application/pdf', storageKey: `${prefix}/report.pdf`, durationSeconds: null }));
    }

    return await em.transactional(async (tx) => {
      const claimed = await tx.execute<{ id: string }[]>(`update sessions set files_prepared_at = now(), updated_at = now() where id = ? and files_prepared_at is null returning id`, [sessionId]);
      if (claimed.length === 0) return false;
      if (prepared.length > 0) {
        await tx.execute(
          `insert into session_files (id, organization_id, session_id, kind, name, content_type, size_bytes, duration_seconds, sha256, storage_key, created_at, updated_at)
           select f.id, ?, ?, f.kind, f.name, f.content_type, f.size_bytes, f.duration_seconds, f.sha256, f.storage_key, now(), now()
             from jsonb_to_recordset(?::jsonb) as f(id text, kind text, name text, content_type text, size_bytes bigint, duration_seconds double precision, sha256 text, storage_key text)`,
          [
            organizationId,
            sessionId,
            JSON.stringify(prepared.map((file) => ({ id: newId('fil'), kind: file.kind, name: file.name, content_type: file.contentType, size_bytes: file.size, duration_seconds: file.durationSeconds, sha256: file.sha256, storage_key: file.storageKey }))),
          ],
        );
      }
      return true;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function store(storage: FileStorage, file: string, facts: Omit<PreparedFile, 'size' | 'sha256'>): Promise<PreparedFile> {
  const sha256 = await sha256OfFile(file);
  const { size } = await storage.put(facts.storageKey, createReadStream(file));
  return { ...facts, size, sha256 };
}

/**
 * The answers' recordings on one timeline. Without ffmpeg, a session with a single recording
 * offers that recording as is; one with several gets none (logged), as merging needs decoding.
 * A merge that fails (a damaged recording, one gone from storage) is logged and leaves the session
 * without a merged file: the exports are still made.
 */
async function mergedRecording(
  em: EntityManager,
  services: PrepareFilesServices,
  sessionId: string,
  work: string,
): Promise<{ file: string; contentType: string; extension: string; durationSeconds: number | null } | null> {
  try {
    return await mergeRecordings(em, services, sessionId, work);
  } catch (error) {
    services.logger.warn({ sessionId, err: error instanceof Error ? { name: error.name, message: error.message } : error }, 'merged audio not made; the session keeps its answer recordings');
    return null;
  }
}

async function mergeRecordings(
  em: EntityManager,
  services: PrepareFilesServices,
  sessionId: string,
  work: string,
): Promise<{ file: string; contentType: string; extension: string; durationSeconds: number | null } | null> {
  const clips = await em.execute<{ storage_key: string; content_type: string; start_time: number; duration_seconds: number | null }[]>(
    `select f.storage_key, f.content_type, u.start_time, f.duration_seconds
       from session_utterances u join session_files f on f.id = u.audio_file_id
      where u.session_id = ? order by u.seq`,
    [sessionId],
  );
  if (clips.length === 0) return null;
  // One at a time: a long interview's recordings are not all opened at once.
  const local: { file: string; offsetSeconds: number; contentType: string; durationSeconds: number | null }[] = [];
  for (const [index, clip] of clips.entries()) {
    const file = path.join(work, `clip-${index}`);
    await pipeline(await services.storage.open(clip.storage_key), createWriteStream(file));
    local.push({ file, offsetSeconds: clip.start_time, contentType: clip.content_type, durationSeconds: clip.duration_seconds });
  }
  if (!services.ffmpeg) {
    if (local.length > 1) {
      services.logger.warn({ sessionId, clips: local.length }, 'no ffmpeg: the session gets no merged audio');
      return null;
    }
    const only = local[0]!;
    const facts = await probeAudio(only.file);
    return { file: only.file, contentType: only.contentType, extension: audioExtensionOf(only.contentType), durationSeconds: facts?.durationSeconds ?? only.durationSeconds };
  }
  const output = path.join(work, `merged.${MERGED_AUDIO.extension}`);
  await mergeAudioClips(services.ffmpeg, local, output);
  const facts = (await stat(output)).size > 0 ? await probeAudio(output) : null;
  return { file: output, contentType: MERGED_AUDIO.contentType, extension: MERGED_AUDIO.extension, durationSeconds: facts?.durationSeconds ?? null };
}
