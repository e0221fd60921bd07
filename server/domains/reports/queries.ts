import { sql } from '../../db/sql.js';
import { defineQuery } from '../../db/query.js';

/** Marks the session's files prepared, once: no row when another run did. */
export const claimFilesPrepared = defineQuery({
  columns: { id: 'text' },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`update sessions set files_prepared_at = now(), updated_at = now() where id = ${sessionId} and files_prepared_at is null returning id`,
  example: { sessionId: 'ses_example' },
});

export const claimExportsPrepared = defineQuery({
  columns: { id: 'text' },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`update sessions set exports_prepared_at = now(), updated_at = now() where id = ${sessionId} and exports_prepared_at is null returning id`,
  example: { sessionId: 'ses_example' },
});

export interface PreparedFileRow {
  id: string;
  kind: string;
  name: string;
  content_type: string;
  size_bytes: number;
  duration_seconds: number | null;
  sha256: string;
  storage_key: string;
}

/** Records the files made for a session, in one statement. */
export const insertPreparedFiles = defineQuery({
  columns: {},
  statement: ({ organizationId, sessionId, files }: { organizationId: string; sessionId: string; files: PreparedFileRow[] }) =>
    sql`insert into session_files (id, organization_id, session_id, kind, name, content_type, size_bytes, duration_seconds, sha256, storage_key, created_at, updated_at)
           select f.id, ${organizationId}, ${sessionId}, f.kind, f.name, f.content_type, f.size_bytes, f.duration_seconds, f.sha256, f.storage_key, now(), now()
             from jsonb_to_recordset(${JSON.stringify(files)}::jsonb) as f(id text, kind text, name text, content_type text, size_bytes bigint, duration_seconds double precision, sha256 text, storage_key text)`,
  example: {
    organizationId: 'org_example',
    sessionId: 'ses_example',
    files: [
      { id: 'fil_example', kind: 'export', name: 'x', content_type: 'application/json', size_bytes: 1, duration_seconds: null, sha256: '', storage_key: 'k' },
    ] as PreparedFileRow[],
  },
});

/** The session's utterances on its timeline, with their recordings and what the page reported of when audio played. */
export const sessionTimeline = defineQuery({
  columns: {
    id: 'text',
    speaker: 'text',
    text: 'text | null',
    start_time: 'double precision',
    end_time: 'double precision',
    storage_key: 'text | null',
    audio_started_ms: 'double precision | null',
    end_of_turn_ms: 'double precision | null',
  },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`select u.id, u.speaker, u.text, u.start_time, u.end_time, f.storage_key,
            (extract(epoch from u.audio_started_at) * 1000)::float8 as audio_started_ms, (extract(epoch from u.end_of_turn_at) * 1000)::float8 as end_of_turn_ms
       from session_utterances u left join session_files f on f.id = u.audio_file_id
      where u.session_id = ${sessionId} order by u.seq`,
  example: { sessionId: 'ses_example' },
});
