import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCompletionStatus, TParsedAnswer, TSessionStatus } from '../../../shared/schemas/sessions.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import type { RowOf } from '../../db/query.js';
import { readTranscriptUtterances, type TranscriptRow } from '../transcripts/index.js';
import { type FinishedSessionsScope, finishedSessionsBatch } from './queries.js';

export type { FinishedSessionsScope } from './queries.js';

/** Sessions read per query: memory stays flat however many sessions an export holds. */
const BATCH_SIZE = 100;

/** A finished session as the loop reads it; jsonb and text columns with the types the sessions table holds in them. */
export type FinishedSessionRow = Omit<
  RowOf<(typeof finishedSessionsBatch)['columns']>,
  'status' | 'completion_status' | 'metadata' | 'invite_metadata' | 'sentiment' | 'answers' | 'transcript_status'
> & {
  status: TSessionStatus;
  completion_status: TCompletionStatus | null;
  metadata: Record<string, string | number | boolean>;
  invite_metadata: Record<string, unknown> | null;
  sentiment: TSentiment | null;
  answers: TParsedAnswer[];
  transcript_status: 'ready' | 'none' | null;
};

/**
 * The one loop over finished sessions that exports and anonymized exports share: the scope's
 * sessions, oldest first, read in batches by keyset (never OFFSET), with one query for each
 * batch's transcript utterances (never one per session). `shape` makes each session what the
 * export carries (a transcript redacted or not, or an anonymized session); it gets the
 * utterances of a session whose transcript is ready, none otherwise.
 */
export async function* finishedSessions<T>(
  em: EntityManager,
  scope: FinishedSessionsScope,
  shape: (row: FinishedSessionRow, spoken: TranscriptRow[]) => Promise<T>,
): AsyncGenerator<T> {
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    const rows = (await finishedSessionsBatch.rows(em, { scope, after, limit: BATCH_SIZE })) as FinishedSessionRow[];
    if (rows.length === 0) return;
    const utterances = await readTranscriptUtterances(
      em,
      rows.filter((row) => row.transcript_status === 'ready').map((row) => row.id),
    );
    for (const row of rows) yield await shape(row, utterances.get(row.id) ?? []);
    const last = rows.at(-1)!;
    after = { createdAt: last.created_at, id: last.id };
    if (rows.length < BATCH_SIZE) return;
  }
}
