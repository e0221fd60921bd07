import type { EntityManager } from '@mikro-orm/postgresql';
import type { TAuditActor, TTranscriptAuditAction, TTranscriptAuditEntry } from '../../../shared/schemas/redactions.js';
import { isoTimestamp, queryRows, rawSql, sql } from '../../db/sql.js';
import { newId } from '../../lib/ids.js';
import type { OrganizationScope } from '../common/caller.js';

interface AuditRow {
  id: string;
  session_id: string;
  utterance_id: string;
  action: TTranscriptAuditAction;
  actor_kind: TAuditActor['kind'];
  actor_id: string;
  actor_name: string;
  reason: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

const COLUMNS = rawSql(`id, session_id, utterance_id, action, actor_kind, actor_id, actor_name, reason, details, ${isoTimestamp('created_at')} as created_at`);

function toEntry(row: AuditRow): TTranscriptAuditEntry {
  return {
    id: row.id,
    sessionId: row.session_id,
    utteranceId: row.utterance_id,
    action: row.action,
    actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name },
    reason: row.reason,
    details: row.details,
    createdAt: row.created_at,
  };
}

/**
 * Writes one audit entry (in the caller's transaction). `details` must never hold the words a
 * redaction removed: offsets, time ranges, file ids and sentiments only.
 */
export async function writeAuditEntry(
  em: EntityManager,
  entry: { organizationId: string; sessionId: string; utteranceId: string; action: TTranscriptAuditAction; actor: TAuditActor; reason: string | null; details: Record<string, unknown> },
): Promise<TTranscriptAuditEntry> {
  const [row] = await queryRows<AuditRow>(
    em,
    sql`insert into transcript_audit_log (id, organization_id, session_id, utterance_id, action, actor_kind, actor_id, actor_name, reason, details, created_at)
        values (${newId('tau')}, ${entry.organizationId}, ${entry.sessionId}, ${entry.utteranceId}, ${entry.action}, ${entry.actor.kind}, ${entry.actor.id}, ${entry.actor.name},
                ${entry.reason}, ${JSON.stringify(entry.details)}::jsonb, now())
        returning ${COLUMNS}`,
  );
  return toEntry(row!);
}

/** A session's audit entries of these actions, oldest first (a session has a handful; capped all the same). */
export async function readAuditEntries(
  em: EntityManager,
  { organizationId }: OrganizationScope,
  { sessionId, actions }: { sessionId: string; actions: readonly TTranscriptAuditAction[] },
): Promise<TTranscriptAuditEntry[]> {
  const rows = await queryRows<AuditRow>(
    em,
    sql`select ${COLUMNS} from transcript_audit_log
         where organization_id = ${organizationId} and session_id = ${sessionId} and action in (select jsonb_array_elements_text(${JSON.stringify(actions)}::jsonb))
         order by created_at, id limit 1000`,
  );
  return rows.map(toEntry);
}
