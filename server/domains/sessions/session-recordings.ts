import type { EntityManager } from '@mikro-orm/postgresql';
import { sessionRecordingRows } from './queries.js';

/** A session's one recording: a `merged_audio` or an `audio` session file. */
export interface SessionRecording {
  fileId: string;
  storageKey: string;
  contentType: string;
  /** null when it could not be measured. */
  durationSeconds: number | null;
}

/**
 * "The session's recording", for every reader (ZIP exports, the `interview.completed` event): its
 * merged audio, else its only answer recording, which needs no merging. A session with several
 * answer recordings and no merged audio (not made yet, or no ffmpeg) has none, nor has a session
 * answered in text. One query for any number of sessions; the map holds only those with one.
 */
export async function sessionRecordings(em: EntityManager, sessionIds: readonly string[]): Promise<Map<string, SessionRecording>> {
  const recordings = new Map<string, SessionRecording>();
  if (sessionIds.length === 0) return recordings;
  const rows = await sessionRecordingRows.rows(em, { sessionIds: [...sessionIds] });
  for (const row of rows) {
    recordings.set(row.session_id, { fileId: row.id, storageKey: row.storage_key, contentType: row.content_type, durationSeconds: row.duration_seconds });
  }
  return recordings;
}
