import type { Deps } from '../common/deps.js';
import type { TPiiKind } from '../../../shared/schemas/pii.js';
import type { TSession } from '../../../shared/schemas/sessions.js';
import { type TTranscript, ZIP_EXPORT_MAX_SESSIONS } from '../../../shared/schemas/transcripts.js';
import type { SessionRedactor } from '../../analysis/pii-redaction.js';
import { AppError } from '../../errors.js';
import { type SessionRecording, sessionRecordings } from '../sessions/index.js';
import { FULL_TRANSCRIPT, redactedParticipant, redactorFor, shapeTranscript, structuredQuestionIdsOf } from '../transcripts/index.js';
import { storedSentiment } from '../common/stored-sentiment.js';
import type { ExportCampaign } from './export-scope.js';
import { finishedSessions, type FinishedSessionRow } from './finished-sessions.js';
import { zipFinishedSessionCount, zipFinishedSessions } from './queries.js';

/** How an export's transcripts are read: the PII kinds to redact, and (in a ZIP) the sessions listed beforehand. */
export interface TranscriptOptions {
  redactKinds: readonly TPiiKind[];
  sessionIds?: readonly string[];
}

/** One finished session as exports carry it: fields of the session record (`GET /v1/sessions/{id}`), and its transcript. */
type ExportedSession = Pick<
  TSession,
  | 'id'
  | 'campaignId'
  | 'status'
  | 'completionStatus'
  | 'participant'
  | 'metadata'
  | 'startedAt'
  | 'completedAt'
  | 'duration'
  | 'language'
  | 'sentiment'
  | 'answers'
> & {
  /** `ready`, `none` (nothing to transcribe) or `pending` (still being made). */
  transcriptStatus: 'ready' | 'none' | 'pending';
  transcript: TTranscript | null;
};

/** A timestamp as the API writes it (the statement's is PostgreSQL's text). */
function isoOf(timestamp: string | null): string | null {
  return timestamp === null ? null : new Date(timestamp).toISOString();
}

function toExportedSession(row: FinishedSessionRow, transcript: TTranscript | null, redactor: SessionRedactor | null): ExportedSession {
  const clean = (value: string) => (redactor ? redactor.piece(value) : value);
  return {
    id: row.id,
    campaignId: row.campaign_id,
    status: row.status,
    completionStatus: row.completion_status,
    participant: redactedParticipant({ email: row.participant_email, name: row.participant_name }, redactor),
    metadata: Object.fromEntries(Object.entries(row.metadata).map(([key, value]) => [key, typeof value === 'string' ? clean(value) : value])),
    startedAt: isoOf(row.started_at),
    completedAt: isoOf(row.completed_at),
    duration: row.duration_seconds,
    language: row.language,
    sentiment: storedSentiment(row.sentiment, row.sentiment_score),
    answers: row.answers.map((answer) => (typeof answer.value === 'string' ? { ...answer, value: clean(answer.value) } : answer)),
    transcriptStatus: row.transcript_status ?? 'pending',
    transcript,
  };
}

/**
 * The finished sessions of one campaign, oldest first, each with its whole transcript (redacted
 * when asked), through the loop anonymized exports share (finished-sessions.ts). `sessionIds`
 * narrows it to sessions listed beforehand (a ZIP's manifest and its transcripts must agree).
 */
export function exportedSessions(
  { em }: Pick<Deps, 'em'>,
  { campaign, ...options }: { campaign: ExportCampaign } & TranscriptOptions,
): AsyncGenerator<ExportedSession> {
  const scope = { organizationId: campaign.organizationId, campaignIds: [campaign.id], sessionIds: options.sessionIds };
  return finishedSessions(em, scope, async (row, ready) => {
    // A transcript is shaped once it was generated; until then the session is exported without one.
    const spoken = row.transcript_generated_at ? ready : [];
    const redactor = redactorFor({ rows: spoken }, options.redactKinds);
    let transcript: TTranscript | null = null;
    if (row.transcript_status === 'ready' && row.transcript_generated_at) {
      const source = {
        sessionId: row.id,
        language: row.language,
        durationSeconds: row.duration_seconds,
        generatedAt: new Date(row.transcript_generated_at),
        structuredQuestionIds: await structuredQuestionIdsOf(em, { scriptId: row.script_id, scriptVersion: row.script_version }),
        rows: spoken,
      };
      transcript = shapeTranscript(source, FULL_TRANSCRIPT, redactor);
    }
    return toExportedSession(row, transcript, redactor);
  });
}

/** One finished session of a ZIP export: its campaign and its recording (or null). */
export interface ZipSession {
  id: string;
  campaignId: string;
  recording: SessionRecording | null;
}

/**
 * The finished sessions of the campaigns, oldest first, each with its recording (see
 * sessionRecordings): read once, so the ZIP's manifest, its audio folders and its transcripts all
 * hold the same sessions even when another one finishes meanwhile. More than
 * ZIP_EXPORT_MAX_SESSIONS is 422 EXPORT_TOO_LARGE, found before anything else is read.
 */
export async function zipSessions({ em }: Pick<Deps, 'em'>, { campaignIds }: { campaignIds: string[] }): Promise<ZipSession[]> {
  if (campaignIds.length === 0) return [];
  const rows = await zipFinishedSessions.rows(em, { campaignIds, limit: ZIP_EXPORT_MAX_SESSIONS + 1 });
  if (rows.length > ZIP_EXPORT_MAX_SESSIONS) {
    const { count } = (await zipFinishedSessionCount.first(em, { campaignIds }))!;
    throw new AppError(
      'EXPORT_TOO_LARGE',
      `This export holds ${count} sessions; a ZIP with audio holds at most ${ZIP_EXPORT_MAX_SESSIONS}. Export per campaign, or without audio.`,
      {
        sessions: count,
        limit: ZIP_EXPORT_MAX_SESSIONS,
      },
    );
  }
  const recordings = await sessionRecordings(
    em,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ id: row.id, campaignId: row.campaign_id, recording: recordings.get(row.id) ?? null }));
}
