import type { EntityManager } from '@mikro-orm/postgresql';
import type { TPiiKind } from '../../../shared/schemas/pii.js';
import type { TCompletionStatus, TParsedAnswer, TSession } from '../../../shared/schemas/sessions.js';
import { type TSentiment, type TTranscript, ZIP_EXPORT_MAX_SESSIONS } from '../../../shared/schemas/transcripts.js';
import type { SessionRedactor } from '../../analysis/pii-redaction.js';
import { AppError } from '../../errors.js';
import { type SessionRecording, sessionRecordings } from '../sessions/index.js';
import { structuredQuestionIdsOf, readTranscriptUtterances, FULL_TRANSCRIPT, redactedParticipant, redactorFor, shapeTranscript } from '../transcripts/index.js';
import { storedSentiment } from '../common/stored-sentiment.js';
import type { ExportCampaign } from './export-scope.js';

/** Sessions read per query: memory stays flat however many sessions an export holds. */
const BATCH_SIZE = 100;

/** One finished session as exports carry it: fields of the session record (`GET /v1/sessions/{id}`), and its transcript. */
type ExportedSession = Pick<
  TSession,
  'id' | 'campaignId' | 'status' | 'completionStatus' | 'participant' | 'metadata' | 'startedAt' | 'completedAt' | 'duration' | 'language' | 'sentiment' | 'answers'
> & {
  /** `ready`, `none` (nothing to transcribe) or `pending` (still being made). */
  transcriptStatus: 'ready' | 'none' | 'pending';
  transcript: TTranscript | null;
};

interface SessionRow {
  id: string;
  campaign_id: string;
  status: TSession['status'];
  completion_status: TCompletionStatus | null;
  participant_email: string | null;
  participant_name: string | null;
  metadata: Record<string, string | number | boolean>;
  // Raw rows: timestamps come back as strings.
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
  duration_seconds: number;
  language: string;
  sentiment: TSentiment | null;
  sentiment_score: number | null;
  answers: TParsedAnswer[];
  script_id: string;
  script_version: number;
  transcript_status: 'ready' | 'none' | null;
  transcript_generated_at: string | null;
}

function isoOf(timestamp: string | null): string | null {
  return timestamp === null ? null : new Date(timestamp).toISOString();
}

function toExportedSession(row: SessionRow, transcript: TTranscript | null, redactor: SessionRedactor | null): ExportedSession {
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
 * when asked), read in batches by keyset (never OFFSET, never one query per session). `sessionIds`
 * narrows it to sessions listed beforehand (a ZIP's manifest and its transcripts must agree).
 */
export async function* exportedSessions(
  em: EntityManager,
  campaign: ExportCampaign,
  options: { redactKinds: readonly TPiiKind[]; sessionIds?: readonly string[] },
): AsyncGenerator<ExportedSession> {
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    const rows: SessionRow[] = await em.execute<SessionRow[]>(
      `select id, campaign_id, status, completion_status, participant_email, participant_name, metadata, started_at, completed_at, created_at,
              duration_seconds, language, sentiment, sentiment_score, answers, script_id, script_version, transcript_status, transcript_generated_at
         from sessions
        where campaign_id = ? and status in ('completed', 'abandoned') and not preview ${options.sessionIds ? 'and id = any(array[?]::text[])' : ''} ${after ? 'and (created_at, id) > (?, ?)' : ''}
        order by created_at, id limit ?`,
      [campaign.id, ...(options.sessionIds ? [options.sessionIds.length > 0 ? [...options.sessionIds] : ['']] : []), ...(after ? [after.createdAt, after.id] : []), BATCH_SIZE],
    );
    if (rows.length === 0) return;
    const ready = rows.filter((row) => row.transcript_status === 'ready' && row.transcript_generated_at);
    const utterances = await readTranscriptUtterances(em, ready.map((row) => row.id));
    for (const row of rows) {
      let transcript: TTranscript | null = null;
      const spoken = utterances.get(row.id) ?? [];
      const redactor = redactorFor({ rows: spoken }, options.redactKinds);
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
      yield toExportedSession(row, transcript, redactor);
    }
    const last = rows.at(-1)!;
    after = { createdAt: last.created_at, id: last.id };
    if (rows.length < BATCH_SIZE) return;
  }
}

/** One finished session of a ZIP export: its campaign and its recording (or null). */
export interface ZipSession {
  id: string;
  campaignId: string;
  recording: SessionRecording | null;
}

const FINISHED_IN_CAMPAIGNS = `from sessions where campaign_id = any(array[?]::text[]) and status in ('completed', 'abandoned') and not preview`;

/**
 * The finished sessions of the campaigns, oldest first, each with its recording (see
 * sessionRecordings): read once, so the ZIP's manifest, its audio folders and its transcripts all
 * hold the same sessions even when another one finishes meanwhile. More than
 * ZIP_EXPORT_MAX_SESSIONS is 422 EXPORT_TOO_LARGE, found before anything else is read.
 */
export async function zipSessions(em: EntityManager, campaignIds: string[]): Promise<ZipSession[]> {
  if (campaignIds.length === 0) return [];
  const rows = await em.execute<{ id: string; campaign_id: string }[]>(`select id, campaign_id ${FINISHED_IN_CAMPAIGNS} order by created_at, id limit ?`, [
    campaignIds,
    ZIP_EXPORT_MAX_SESSIONS + 1,
  ]);
  if (rows.length > ZIP_EXPORT_MAX_SESSIONS) {
    const [{ count }] = await em.execute<[{ count: number }]>(`select count(*)::int as count ${FINISHED_IN_CAMPAIGNS}`, [campaignIds]);
    throw new AppError('EXPORT_TOO_LARGE', `This export holds ${count} sessions; a ZIP with audio holds at most ${ZIP_EXPORT_MAX_SESSIONS}. Export per campaign, or without audio.`, {
      sessions: count,
      limit: ZIP_EXPORT_MAX_SESSIONS,
    });
  }
  const recordings = await sessionRecordings(em, rows.map((row) => row.id));
  return rows.map((row) => ({ id: row.id, campaignId: row.campaign_id, recording: recordings.get(row.id) ?? null }));
}
