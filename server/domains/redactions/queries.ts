import type { TAuditActor, TTranscriptAuditAction } from '../../../shared/schemas/redactions.js';
import { defineQuery } from '../../db/query.js';
import { isoTimestamp, rawSql, type Sql, sql } from '../../db/sql.js';

// The transcript audit log.

const AUDIT_COLUMNS = rawSql(
  `id, session_id, utterance_id, action, actor_kind, actor_id, actor_name, reason, details, ${isoTimestamp('created_at')} as created_at`,
);

const auditColumns = {
  id: 'text',
  session_id: 'text',
  utterance_id: 'text',
  action: 'text',
  actor_kind: 'text',
  actor_id: 'text',
  actor_name: 'text',
  reason: 'text | null',
  details: 'jsonb',
  created_at: 'text',
} as const;

export interface AuditEntryValues {
  id: string;
  organizationId: string;
  sessionId: string;
  utteranceId: string;
  action: TTranscriptAuditAction;
  actor: TAuditActor;
  reason: string | null;
  details: Record<string, unknown>;
}

/** One audit entry, written in the caller's transaction. */
export const insertAuditEntry = defineQuery({
  columns: auditColumns,
  statement: (entry: AuditEntryValues) =>
    sql`insert into transcript_audit_log (id, organization_id, session_id, utterance_id, action, actor_kind, actor_id, actor_name, reason, details, created_at)
        values (${entry.id}, ${entry.organizationId}, ${entry.sessionId}, ${entry.utteranceId}, ${entry.action}, ${entry.actor.kind}, ${entry.actor.id}, ${entry.actor.name},
                ${entry.reason}, ${JSON.stringify(entry.details)}::jsonb, now())
        returning ${AUDIT_COLUMNS}`,
  example: {
    id: 'tau_example',
    organizationId: 'org_example',
    sessionId: 'ses_example',
    utteranceId: 'utt_example',
    action: 'redact',
    actor: { kind: 'api_key', id: 'key_example', name: 'CI' },
    reason: null,
    details: {},
  } as AuditEntryValues,
});

/** A session's audit entries of these actions, oldest first (a session has a handful; capped all the same). */
export const sessionAuditEntries = defineQuery({
  columns: auditColumns,
  statement: ({ organizationId, sessionId, actions }: { organizationId: string; sessionId: string; actions: readonly TTranscriptAuditAction[] }) =>
    sql`select ${AUDIT_COLUMNS} from transcript_audit_log
         where organization_id = ${organizationId} and session_id = ${sessionId} and action in (select jsonb_array_elements_text(${JSON.stringify(actions)}::jsonb))
         order by created_at, id limit 1000`,
  example: { organizationId: 'org_example', sessionId: 'ses_example', actions: ['redact'] as readonly TTranscriptAuditAction[] },
});

// A session's stored transcript changing: its lock, its stored exports.

/** The transaction-scoped lock changes to one session's transcript take, one after another. */
export const lockTranscript = defineQuery({
  columns: { locked: 'boolean' },
  statement: ({ sessionId }: { sessionId: string }) => sql`select true as locked from pg_advisory_xact_lock(hashtextextended(${`redaction:${sessionId}`}, 0))`,
  example: { sessionId: 'ses_example' },
});

/** The session's stored exports (transcript JSON, PDF report). */
export const sessionExportFiles = defineQuery({
  columns: { id: 'text', name: 'text', storage_key: 'text' },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`select id, name, storage_key from session_files where session_id = ${sessionId} and kind = 'export' order by created_at, id`,
  example: { sessionId: 'ses_example' },
});

export const deleteSessionFile = defineQuery({
  columns: {},
  statement: ({ fileId }: { fileId: string }) => sql`delete from session_files where id = ${fileId}`,
  example: { fileId: 'sfl_example' },
});

/** A stored export made again: its new object, size and digest. */
export const replaceExportFile = defineQuery({
  columns: {},
  statement: ({ fileId, storageKey, size, sha256 }: { fileId: string; storageKey: string; size: number; sha256: string }) =>
    sql`update session_files set storage_key = ${storageKey}, size_bytes = ${size}, sha256 = ${sha256}, updated_at = now() where id = ${fileId}`,
  example: { fileId: 'sfl_example', storageKey: 'exports/example', size: 1, sha256: 'ab' },
});

// A redaction.

/** The utterance to redact, locked. */
export const utteranceForRedaction = defineQuery({
  columns: {
    id: 'text',
    speaker: 'text',
    text: 'text | null',
    keywords: 'jsonb | null',
    heard_as: 'text | null',
    value: 'jsonb | null',
    start_time: 'double precision',
    end_time: 'double precision',
    audio_file_id: 'text | null',
  },
  statement: ({ organizationId, sessionId, utteranceId }: { organizationId: string; sessionId: string; utteranceId: string }) =>
    sql`select id, speaker, text, keywords, heard_as, value, start_time, end_time, audio_file_id from session_utterances
           where id = ${utteranceId} and session_id = ${sessionId} and organization_id = ${organizationId} for update`,
  example: { organizationId: 'org_example', sessionId: 'ses_example', utteranceId: 'utt_example' },
});

/** The answer's recording and the session's recordings of these kinds on its timeline. */
export const recordingsToSilence = defineQuery({
  columns: { id: 'text', kind: 'text', storage_key: 'text', content_type: 'text', duration_seconds: 'double precision | null' },
  statement: ({ sessionId, audioFileId, timelineKinds }: { sessionId: string; audioFileId: string | null; timelineKinds: string[] }) =>
    sql`select id, kind, storage_key, content_type, duration_seconds from session_files
           where session_id = ${sessionId} and (id = ${audioFileId} or kind = any(${timelineKinds}::text[])) order by kind, created_at`,
  example: { sessionId: 'ses_example', audioFileId: 'sfl_example' as string | null, timelineKinds: ['merged_audio'] },
});

/** The utterance's new text and keywords, and (`also`) its scrubbed value and heard-as text when it has them. */
export const redactUtteranceText = defineQuery({
  columns: {},
  statement: ({ utteranceId, text, keywords, also }: { utteranceId: string; text: string; keywords: string | null; also: Sql }) =>
    sql`update session_utterances set text = ${text}, keywords = ${keywords}::jsonb${also} where id = ${utteranceId}`,
  example: { utteranceId: 'utt_example', text: '[REDACTED]', keywords: '[]' as string | null, also: sql`, value = ${'"x"'}::jsonb, heard_as = ${'x'}` },
});

/** Offsets after the span move with it; a highlight over any part of it widens to the whole marker. Answers the highlights moved. */
export const adjustHighlights = defineQuery({
  columns: { id: 'text' },
  statement: (move: { organizationId: string; utteranceId: string; start: number; end: number; delta: number; markerLength: number }) =>
    sql`update highlights set
            start_offset = case when start_offset >= ${move.end} then start_offset + ${move.delta} when start_offset > ${move.start} then ${move.start} else start_offset end,
            end_offset = case when end_offset >= ${move.end} then end_offset + ${move.delta} else ${move.start + move.markerLength} end,
            updated_at = now()
           where utterance_id = ${move.utteranceId} and organization_id = ${move.organizationId} and end_offset > ${move.start}
           returning id`,
  example: { organizationId: 'org_example', utteranceId: 'utt_example', start: 1, end: 5, delta: 6, markerLength: 10 },
});

export const sessionAnswers = defineQuery({
  columns: { answers: 'jsonb' },
  statement: ({ sessionId }: { sessionId: string }) => sql`select answers from sessions where id = ${sessionId}`,
  example: { sessionId: 'ses_example' },
});

/** The session's parsed answers, scrubbed (null: unchanged), and its updatedAt moved. */
export const updateSessionAnswers = defineQuery({
  columns: {},
  statement: ({ sessionId, answers }: { sessionId: string; answers: string | null }) =>
    sql`update sessions set ${answers !== null ? sql`answers = ${answers}::jsonb, ` : sql``}updated_at = now() where id = ${sessionId}`,
  example: { sessionId: 'ses_example', answers: '[]' as string | null },
});

export const sessionInsightsForUpdate = defineQuery({
  columns: { summary: 'text', key_quotes: 'jsonb', action_items: 'jsonb', topics: 'jsonb' },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`select summary, key_quotes, action_items, topics from session_insights where session_id = ${sessionId} for update`,
  example: { sessionId: 'ses_example' },
});

export const updateSessionInsights = defineQuery({
  columns: {},
  statement: (next: { sessionId: string; summary: string; keyQuotes: string; actionItems: string; topics: string }) =>
    sql`update session_insights set summary = ${next.summary}, key_quotes = ${next.keyQuotes}::jsonb, action_items = ${next.actionItems}::jsonb,
               topics = ${next.topics}::jsonb where session_id = ${next.sessionId}`,
  example: { sessionId: 'ses_example', summary: 'Summary.', keyQuotes: '[]', actionItems: '[]', topics: '[]' },
});

/** The session's probe ledgers that hold what the participant said (`pickedUp`), locked. */
export const probeLedgersForUpdate = defineQuery({
  columns: { id: 'text', picked_up: 'text' },
  statement: ({ organizationId, sessionId }: { organizationId: string; sessionId: string }) =>
    sql`select id, probe->>'pickedUp' as picked_up from session_utterances
         where session_id = ${sessionId} and organization_id = ${organizationId} and probe->>'pickedUp' is not null for update`,
  example: { organizationId: 'org_example', sessionId: 'ses_example' },
});

export const updateProbePickedUp = defineQuery({
  columns: {},
  statement: ({ utteranceId, pickedUp }: { utteranceId: string; pickedUp: string }) =>
    sql`update session_utterances set probe = jsonb_set(probe, '{pickedUp}', ${JSON.stringify(pickedUp)}::jsonb) where id = ${utteranceId}`,
  example: { utteranceId: 'utt_example', pickedUp: 'pricing' },
});

export const sessionWebhookEvents = defineQuery({
  columns: { id: 'text', facts: 'jsonb' },
  statement: ({ organizationId, sessionId }: { organizationId: string; sessionId: string }) =>
    sql`select id, facts from webhook_events where organization_id = ${organizationId} and session_id = ${sessionId}`,
  example: { organizationId: 'org_example', sessionId: 'ses_example' },
});

export const updateWebhookEventFacts = defineQuery({
  columns: {},
  statement: ({ eventId, facts }: { eventId: string; facts: string }) => sql`update webhook_events set facts = ${facts}::jsonb where id = ${eventId}`,
  example: { eventId: 'evt_example', facts: '{}' },
});

/** A recording silenced: the new object, its size, digest and duration. */
export const replaceSilencedFile = defineQuery({
  columns: {},
  statement: (copy: { fileId: string; storageKey: string; size: number; sha256: string; durationSeconds: number | null }) =>
    sql`update session_files set storage_key = ${copy.storageKey}, size_bytes = ${copy.size}, sha256 = ${copy.sha256}, duration_seconds = ${copy.durationSeconds}, updated_at = now() where id = ${copy.fileId}`,
  example: { fileId: 'sfl_example', storageKey: 'audio/example', size: 1, sha256: 'ab', durationSeconds: 1.5 as number | null },
});
