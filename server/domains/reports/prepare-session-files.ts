import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSessionFileKind } from '../../../shared/schemas/sessions.js';
import { ZPdfQuery } from '../../../shared/schemas/transcripts.js';
import type { RowOf } from '../../db/query.js';
import { Session } from '../../entities/index.js';
import { addJobs } from '../../jobs/add-jobs.js';
import type { Logger } from '../../logger.js';
import { newId } from '../../lib/ids.js';
import { sha256OfFile } from '../../lib/sha256-file.js';
import type { OrganizationLogos } from '../../reports/organization-logos.js';
import type { ReportRenderer } from '../../reports/report-renderer.js';
import { probeAudio } from '../../speech/audio-probe.js';
import { type AudioClip, MERGED_AUDIO, mergeSessionTracks } from '../../speech/merge-audio.js';
import { SpeechSynthesisError } from '../../speech/speech-synthesizer.js';
import type { TurnAudio } from '../../speech/turn-audio.js';
import { FileNotFoundError, type FileStorage } from '../../storage/file-storage.js';
import type { Deps } from '../common/deps.js';
import { placeAiTurns, type TimelineTurn, offsetAt, announceCompletionJob, prepareSessionExportsJob } from '../sessions/index.js';
import { transcriptSourceOf, FULL_TRANSCRIPT, shapeTranscript } from '../transcripts/index.js';
import { buildSessionReport, loadSessionReportSource } from './assemble-session-report.js';
import { claimExportsPrepared, claimFilesPrepared, insertPreparedFiles, sessionTimeline } from './queries.js';

export interface PrepareFilesServices {
  storage: FileStorage;
  ffmpeg: string | null;
  /** The spoken turns (cached, or made now) for the AI's track; null without server speech synthesis. */
  turnAudio: TurnAudio | null;
  logos: Pick<OrganizationLogos, 'fetch'>;
  logger: Pick<Logger, 'warn'>;
  /** The PDF report, rendered off the event loop. */
  reports: Pick<ReportRenderer, 'render'>;
}

/** The stored report is the one `GET …/pdf` answers without options. */
const REPORT_OPTIONS = ZPdfQuery.parse({});

/** A file made in the job's work directory, and how it is to be recorded. */
interface MadeFile {
  file: string;
  kind: Extract<TSessionFileKind, 'merged_audio' | 'participant_audio' | 'ai_audio' | 'export'>;
  name: string;
  contentType: string;
  storageKey: string;
  durationSeconds: number | null;
}

interface PreparedFile extends Omit<MadeFile, 'file'> {
  size: number;
  sha256: string;
}

/**
 * `session__prepare_files`: a finished session's recordings on its timeline (the participant's
 * track, the AI's, and both merged: sessionTracks), then, in the transaction that records them,
 * its `interview.completed` announcement (so the recording the event links to exists when it is
 * sent) and its exports job. A recording that cannot be made (a damaged or missing answer, a
 * failed merge) is logged and left out, and the announcement does not wait for it. A failing
 * database or storage throws, so the job is retried. Files are written under fixed keys first,
 * then recorded once, so a retried job overwrites rather than duplicates.
 *
 * Here, with the reports, rather than in sessions: sessions sit below transcripts and reports.
 * No caller: the job names a session.
 */
export async function prepareSessionFiles(
  { em, services }: Pick<Deps, 'em'> & { services: PrepareFilesServices },
  input: { sessionId: string },
): Promise<boolean> {
  const { sessionId } = input;
  const session = await em.findOne(Session, sessionId);
  if (!session || !isFinished(session) || !session.insightsGeneratedAt || session.filesPreparedAt) return false;
  const organizationId = session.organization.id;
  const prefix = `sessions/${organizationId}/${sessionId}`;
  return inWorkDirectory(async (work) => {
    const made: MadeFile[] = [];
    const tracks = await sessionTracks(em, services, session, work);
    if (tracks) {
      const { extension, contentType } = MERGED_AUDIO;
      made.push({ ...tracks.merged, kind: 'merged_audio', name: `${sessionId}.${extension}`, contentType, storageKey: `${prefix}/merged-audio` });
      made.push({
        ...tracks.participant,
        kind: 'participant_audio',
        name: `${sessionId}-participant.${extension}`,
        contentType,
        storageKey: `${prefix}/participant-audio`,
      });
      if (tracks.ai) made.push({ ...tracks.ai, kind: 'ai_audio', name: `${sessionId}-ai.${extension}`, contentType, storageKey: `${prefix}/ai-audio` });
    }
    const prepared = await storeAll(services.storage, made);
    return em.transactional(async (tx) => {
      if ((await claimFilesPrepared.rows(tx, { sessionId })).length === 0) return false;
      await recordPrepared(tx, organizationId, sessionId, prepared);
      await addJobs(tx, [announceCompletionJob(sessionId), prepareSessionExportsJob(sessionId)]);
      return true;
    });
  });
}

/**
 * `session__prepare_exports`: a finished session's exports, the transcript as JSON and the PDF
 * report with the default options (what `GET …/pdf` answers without options), after its
 * recordings and beside its announcement. In a queue of their own (one render at a time). An
 * export that cannot be made is logged and left out. Redaction waits for them
 * (`exportsPreparedAt`): it rewrites stored exports, and these read the text before they store.
 */
export async function prepareSessionExports(
  { em, services }: Pick<Deps, 'em'> & { services: PrepareFilesServices },
  input: { sessionId: string },
): Promise<boolean> {
  const { sessionId } = input;
  const session = await em.findOne(Session, sessionId);
  if (!session || !isFinished(session) || !session.filesPreparedAt || session.exportsPreparedAt) return false;
  const organizationId = session.organization.id;
  const prefix = `sessions/${organizationId}/${sessionId}`;
  return inWorkDirectory(async (work) => {
    const made: MadeFile[] = [];
    if (session.transcriptStatus === 'ready') {
      const source = await transcriptSourceOf(em, session);
      const reportSource = await loadSessionReportSource(em, services.logos, session, source, REPORT_OPTIONS);
      const json = await optionalFile(services, sessionId, 'transcript JSON', async () => {
        const file = path.join(work, 'transcript.json');
        await writeFile(file, JSON.stringify(shapeTranscript(source, FULL_TRANSCRIPT), null, 2));
        return file;
      });
      if (json)
        made.push({
          file: json,
          kind: 'export',
          name: `transcript-${sessionId}.json`,
          contentType: 'application/json',
          storageKey: `${prefix}/transcript.json`,
          durationSeconds: null,
        });
      const pdf = await optionalFile(services, sessionId, 'PDF report', async () => {
        const file = path.join(work, 'report.pdf');
        await writeFile(file, await services.reports.render(buildSessionReport(reportSource, REPORT_OPTIONS), REPORT_OPTIONS));
        return file;
      });
      if (pdf)
        made.push({
          file: pdf,
          kind: 'export',
          name: `report-${sessionId}.pdf`,
          contentType: 'application/pdf',
          storageKey: `${prefix}/report.pdf`,
          durationSeconds: null,
        });
    }
    const prepared = await storeAll(services.storage, made);
    return em.transactional(async (tx) => {
      if ((await claimExportsPrepared.rows(tx, { sessionId })).length === 0) return false;
      await recordPrepared(tx, organizationId, sessionId, prepared);
      return true;
    });
  });
}

function isFinished(session: Session): boolean {
  return session.status === 'completed' || session.status === 'abandoned';
}

async function inWorkDirectory<T>(run: (work: string) => Promise<T>): Promise<T> {
  const work = await mkdtemp(path.join(tmpdir(), 'interview-files-'));
  try {
    return await run(work);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function storeAll(storage: FileStorage, made: MadeFile[]): Promise<PreparedFile[]> {
  const prepared: PreparedFile[] = [];
  for (const file of made) prepared.push(await store(storage, file));
  return prepared;
}

async function recordPrepared(tx: EntityManager, organizationId: string, sessionId: string, prepared: PreparedFile[]): Promise<void> {
  if (prepared.length === 0) return;
  await insertPreparedFiles.rows(tx, {
    organizationId,
    sessionId,
    files: prepared.map((file) => ({
      id: newId('fil'),
      kind: file.kind,
      name: file.name,
      content_type: file.contentType,
      size_bytes: file.size,
      duration_seconds: file.durationSeconds,
      sha256: file.sha256,
      storage_key: file.storageKey,
    })),
  });
}

async function store(storage: FileStorage, made: MadeFile): Promise<PreparedFile> {
  const { file, ...facts } = made;
  const sha256 = await sha256OfFile(file);
  const { size } = await storage.put(facts.storageKey, createReadStream(file));
  return { ...facts, size, sha256 };
}

/** Makes one of the session's optional files: a failure is logged and the file left out. */
async function optionalFile<T>(services: PrepareFilesServices, sessionId: string, what: string, make: () => Promise<T | null>): Promise<T | null> {
  try {
    return await make();
  } catch (error) {
    notMade(services, sessionId, what, error);
    return null;
  }
}

function notMade(services: PrepareFilesServices, sessionId: string, what: string, error: unknown): void {
  services.logger.warn(
    { sessionId, err: error instanceof Error ? { name: error.name, message: error.message } : error },
    `${what} not made; the session's other files are`,
  );
}

/** A session's recordings, made in the job's work directory; the AI's track only when it could be made. */
interface SessionTracks {
  participant: { file: string; durationSeconds: number | null };
  ai: { file: string; durationSeconds: number | null } | null;
  merged: { file: string; durationSeconds: number | null };
}

/**
 * One utterance on the session's timeline. `audio_started_ms`, AI turns: when the page reported
 * its audio started playing; `end_of_turn_ms`, answers: when the page ended the turn (epoch ms,
 * the participant's clock).
 */
type TimelineRow = Omit<RowOf<typeof sessionTimeline.columns>, 'speaker'> & { speaker: 'ai' | 'participant' };

/**
 * The session's recordings on one timeline: the participant's track (the answers' recordings),
 * the AI's track (its spoken turns, placeAiTurns) and both merged. None to make for a session
 * without answer recordings (answered in text), nor without ffmpeg: a single recording is already
 * the session's recording (sessionRecordings offers it), and several cannot be merged without
 * decoding (logged), so nothing is downloaded. A recording gone from storage, a damaged one or a
 * failed merge leaves the session without these files (logged); it keeps its answer recordings.
 * Each recording counts for its answer's time only (startTime to endTime, on the session's clock)
 * and every track ends with the session, whatever the files hold: a recording longer than its
 * answer (kept before such uploads were refused) is not decoded past it. The AI's track needs
 * the server's speech synthesis; without it, or when a turn cannot be spoken now (a provider
 * down), the session gets the other two (logged), the merged one then being the answers alone.
 */
async function sessionTracks(em: EntityManager, services: PrepareFilesServices, session: Session, work: string): Promise<SessionTracks | null> {
  const sessionId = session.id;
  const rows = (await sessionTimeline.rows(em, { sessionId })) as TimelineRow[];
  const recorded = rows.filter((row) => row.speaker === 'participant' && row.storage_key !== null);
  const sessionEnd = session.completedAt ? offsetAt(session, session.completedAt) : Math.max(0, ...recorded.map((row) => row.end_time));
  const clips = recorded
    .map((row) => ({ storageKey: row.storage_key!, offsetSeconds: row.start_time, seconds: Math.min(row.end_time, sessionEnd) - row.start_time }))
    // An answer of no length has nothing to place (sessions stored when quick answers were startTime == endTime).
    .filter((clip) => clip.seconds > 0);
  const { ffmpeg } = services;
  if (clips.length === 0) return null;
  if (!ffmpeg) {
    if (clips.length > 1) services.logger.warn({ sessionId, clips: clips.length }, 'no ffmpeg: the session gets no merged audio');
    return null;
  }
  // One at a time: a long interview's recordings are not all opened at once.
  const participant: AudioClip[] = [];
  for (const [index, clip] of clips.entries()) {
    const file = path.join(work, `clip-${index}`);
    try {
      await pipeline(await services.storage.open(clip.storageKey), createWriteStream(file));
    } catch (error) {
      if (!(error instanceof FileNotFoundError)) throw error;
      notMade(services, sessionId, 'merged audio', error);
      return null;
    }
    participant.push({ file, offsetSeconds: clip.offsetSeconds, seconds: clip.seconds });
  }
  const ai = await aiTrackClips(services, session, rows, sessionEnd, work);
  return optionalFile(services, sessionId, 'merged audio', async () => {
    const outputs = {
      participant: path.join(work, `participant.${MERGED_AUDIO.extension}`),
      ai: ai.length > 0 ? path.join(work, `ai.${MERGED_AUDIO.extension}`) : undefined,
      merged: path.join(work, `merged.${MERGED_AUDIO.extension}`),
    };
    await mergeSessionTracks(ffmpeg, { participant, ai }, outputs, sessionEnd);
    return {
      participant: await measured(outputs.participant),
      ai: outputs.ai ? await measured(outputs.ai) : null,
      merged: await measured(outputs.merged),
    };
  });
}

async function measured(file: string): Promise<{ file: string; durationSeconds: number | null }> {
  const facts = (await stat(file)).size > 0 ? await probeAudio(file) : null;
  return { file, durationSeconds: facts?.durationSeconds ?? null };
}

/**
 * The AI's turns as clips for its track: each turn's audio as the participant got it (the spoken
 * turn cache: the same text, voice and language), made now when it never was (the browser spoke
 * it, or its link was never fetched), in the session's voice (the synthesizer's default when the
 * session named a browser voice). Placed by placeAiTurns. Empty without speech synthesis, and
 * when any turn cannot be spoken now (logged): a track with turns missing would mislead whoever
 * listens to it. A failing storage throws (the job is retried).
 */
async function aiTrackClips(services: PrepareFilesServices, session: Session, rows: TimelineRow[], sessionEnd: number, work: string): Promise<AudioClip[]> {
  const turnAudio = services.turnAudio;
  if (!turnAudio) return [];
  const { synthesizer } = turnAudio;
  const voice = session.voice && synthesizer.voices.includes(session.voice) ? session.voice : synthesizer.defaultVoice;
  const heard = heardTimes(rows);
  const files = new Map<number, string>();
  const turns: TimelineTurn[] = [];
  try {
    for (const [index, row] of rows.entries()) {
      const turn: TimelineTurn = { speaker: row.speaker, startTime: row.start_time, endTime: row.end_time, heardAt: heard.get(row.id) ?? null };
      turns.push(turn);
      // The closing words are said once the session is over: not on its timeline.
      if (row.speaker !== 'ai' || !row.text || row.start_time >= sessionEnd) continue;
      const file = path.join(work, `turn-${index}.${synthesizer.contentType === 'audio/mpeg' ? 'mp3' : 'ogg'}`);
      const { stream } = await turnAudio.open({ text: row.text, voice, language: session.language });
      await pipeline(stream, createWriteStream(file));
      turn.audioSeconds = (await probeAudio(file))?.durationSeconds ?? null;
      files.set(index, file);
    }
  } catch (error) {
    if (!(error instanceof SpeechSynthesisError)) throw error;
    notMade(services, session.id, "AI's track", error);
    return [];
  }
  return placeAiTurns(turns, sessionEnd).map((placement) => ({
    file: files.get(placement.index)!,
    offsetSeconds: placement.offsetSeconds,
    seconds: placement.seconds,
  }));
}

/**
 * When each AI turn was heard, on the session's timeline, where the page said so: the answer that
 * follows it reports when the turn's audio started playing and when the page ended that answer,
 * both on the participant's clock (a skewed clock cancels out in their difference). That
 * difference is counted back from the answer's end on the timeline (its endTime: when the server
 * took the answer), the point the answer's recording ends at on the participant's track, so the
 * two tracks keep the gap the page measured. Turns without such a report (typed answers, the
 * browser's own speech, pages before the report) are absent: placed where the server produced them.
 */
function heardTimes(rows: TimelineRow[]): Map<string, number> {
  const heard = new Map<string, number>();
  for (const [index, row] of rows.entries()) {
    const answer = rows[index + 1];
    if (row.speaker !== 'ai' || row.audio_started_ms === null || answer?.speaker !== 'participant' || answer.end_of_turn_ms === null) continue;
    const heardBeforeEnd = (answer.end_of_turn_ms - row.audio_started_ms) / 1000;
    // The audio cannot have started after the answer to it ended: a report that says so is not used.
    if (heardBeforeEnd < 0) continue;
    heard.set(row.id, Math.max(0, answer.end_time - heardBeforeEnd));
  }
  return heard;
}
