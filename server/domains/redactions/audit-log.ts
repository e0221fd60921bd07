import type { EntityManager } from '@mikro-orm/postgresql';
import type { TAuditActor, TTranscriptAuditAction, TTranscriptAuditEntry } from '../../../shared/schemas/redactions.js';
import type { RowOf } from '../../db/query.js';
import { newId } from '../../lib/ids.js';
import type { OrganizationScope } from '../common/caller.js';
import { insertAuditEntry, sessionAuditEntries } from './queries.js';

type AuditRow = RowOf<(typeof sessionAuditEntries)['columns']>;

function toEntry(row: AuditRow): TTranscriptAuditEntry {
  return {
    id: row.id,
    sessionId: row.session_id,
    utteranceId: row.utterance_id,
    action: row.action as TTranscriptAuditAction,
    actor: { kind: row.actor_kind as TAuditActor['kind'], id: row.actor_id, name: row.actor_name },
    reason: row.reason,
    details: row.details as Record<string, unknown>,
    createdAt: row.created_at,
  };
}

/**
 * Writes one audit entry (in the caller's transaction). `details` must never hold the words a
 * redaction removed: offsets, time ranges, file ids and sentiments only.
 */
export async function writeAuditEntry(
  em: EntityManager,
  entry: {
    organizationId: string;
    sessionId: string;
    utteranceId: string;
    action: TTranscriptAuditAction;
    actor: TAuditActor;
    reason: string | null;
    details: Record<string, unknown>;
  },
): Promise<TTranscriptAuditEntry> {
  const row = await insertAuditEntry.first(em, { id: newId('tau'), ...entry });
  return toEntry(row!);
}

/** A session's audit entries of these actions, oldest first (a session has a handful; capped all the same). */
export async function readAuditEntries(
  em: EntityManager,
  { organizationId }: OrganizationScope,
  { sessionId, actions }: { sessionId: string; actions: readonly TTranscriptAuditAction[] },
): Promise<TTranscriptAuditEntry[]> {
  const rows = await sessionAuditEntries.rows(em, { organizationId, sessionId, actions });
  return rows.map(toEntry);
}
