import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCompletionStatus, TParsedAnswer } from '../../../shared/schemas/sessions.js';
import type { TSentiment, TTranscript } from '../../../shared/schemas/transcripts.js';
import { SessionRedactor } from '../../analysis/pii-redaction.js';
import { audioExtensionOf } from '../../speech/audio-probe.js';
import { structuredQuestionIdsOf } from '../transcripts/load-transcript.js';
import { readTranscriptUtterances } from '../transcripts/read-utterances.js';
import { FULL_TRANSCRIPT, shapeTranscript } from '../transcripts/shape-transcript.js';
import { storedSentiment } from '../transcripts/stored-sentiment.js';
import type { ExportCampaign } from './export-scope.js';

/** Sessions read per query: memory stays flat however many sessions an export holds. */
const BATCH_SIZE = 100;

/** One finished session as exports carry it. */
interface ExportedSession {
  id: string;
  campaignId: string;
  status: string;
  completionStatus: TCompletionStatus | null;
  participant: { email: string | null; name: string | null };
  metadata: Record<string, string | number | boolean>;
  startedAt: string | null;
  completedAt: string | null;
  duration: number;
  language: string;
  sentiment: { overall: TSentiment; score: number } | null;
  answers: TParsedAnswer[];
  /** `ready`, `none` (nothing to transcribe) or `pending` (still being made). */
  transcriptStatus: 'ready' | 'none' | 'pending';
  transcript: TTranscript | null;
}

/** The session's recording for a ZIP: its merged audio, else its only answer recording. */
export interface ExportedAudio {
  storageKey: string;
  extension: string;
}

interface SessionRow {
  id: string;
  campaign_id: string;
  status: string;
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
    participant: {
      email: row.participant_email && redactor ? '[EMAIL REDACTED]' : row.participant_email,
      // Share-link participants type their own name; some type an address or a number.
      name: row.participant_name === null ? null : clean(row.participant_name),
    },
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
  options: { redactPii: boolean; sessionIds?: readonly string[] },
): AsyncGenerator<ExportedSession> {
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    const rows: SessionRow[] = await em.execute<SessionRow[]>(
      `select id, campaign_id, status, completion_status, participant_email, participant_name, metadata, started_at, completed_at, created_at,
              duration_seconds, language, sentiment, sentiment_score, answers, script_id, script_version, transcript_status, transcript_generated_at
         from sessions
        where campaign_id = ? and status in ('completed', 'abandoned') ${options.sessionIds ? 'and id = any(array[?]::text[])' : ''} ${after ? 'and (created_at, id) > (?, ?)' : ''}
        order by created_at, id limit ?`,
      [campaign.id, ...(options.sessionIds ? [options.sessionIds.length > 0 ? [...options.sessionIds] : ['']] : []), ...(after ? [after.createdAt, after.id] : []), BATCH_SIZE],
    );
    if (rows.length === 0) return;
    const ready = rows.filter((row) => row.transcript_status === 'ready' && row.transcript_generated_at);
    const utterances = await readTranscriptUtterances(em, ready.map((row) => row.id));
    for (const row of rows) {
      let transcript: TTranscript | null = null;
      const spoken = utterances.get(row.id) ?? [];
      const redactor = options.redactPii ? new SessionRedactor(spoken.map((utterance) => utterance.text)) : null;
      if (row.transcript_status === 'ready' && row.transcript_generated_at) {
        const source = {
          sessionId: row.id,
          language: row.language,
          durationSeconds: row.duration_seconds,
          generatedAt: new Date(row.transcript_generated_at),
          structuredQuestionIds: await structuredQuestionIdsOf(em, { scriptId: row.script_id, scriptVersion: row.script_version }),
          rows: spoken,
        };
        transcript = shapeTranscript(source, { ...FULL_TRANSCRIPT, redact_pii: options.redactPii });
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
  audio: ExportedAudio | null;
}

/**
 * Every finished session of the campaigns, oldest first, with its recording: read once, so the
 * ZIP's size check, its manifest, its audio folders and its transcripts all hold the same sessions
 * even when another one finishes meanwhile.
 */
export async function zipSessions(em: EntityManager, campaignIds: string[]): Promise<ZipSession[]> {
  const rows = await em.execute<{ session_id: string; campaign_id: string; kind: string | null; storage_key: string | null; content_type: string | null }[]>(
    `select s.id as session_id, s.campaign_id, f.kind, f.storage_key, f.content_type
       from sessions s left join session_files f on f.session_id = s.id and f.kind in ('merged_audio', 'audio')
      where s.campaign_id = any(array[?]::text[]) and s.status in ('completed', 'abandoned')
      order by s.created_at, s.id, f.created_at`,
    [campaignIds],
  );
  const sessions = new Map<string, { campaignId: string; files: { kind: string; storageKey: string; contentType: string }[] }>();
  for (const row of rows) {
    const session = sessions.get(row.session_id) ?? { campaignId: row.campaign_id, files: [] };
    if (row.kind && row.storage_key && row.content_type) session.files.push({ kind: row.kind, storageKey: row.storage_key, contentType: row.content_type });
    sessions.set(row.session_id, session);
  }
  return [...sessions].map(([id, session]) => {
    const merged = session.files.find((file) => file.kind === 'merged_audio');
    const answers = session.files.filter((file) => file.kind === 'audio');
    const chosen = merged ?? (answers.length === 1 ? answers[0] : undefined);
    return { id, campaignId: session.campaignId, audio: chosen ? { storageKey: chosen.storageKey, extension: audioExtensionOf(chosen.contentType) } : null };
  });
}
