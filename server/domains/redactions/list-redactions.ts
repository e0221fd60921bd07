import type { EntityManager } from '@mikro-orm/postgresql';
import type { TRedactionList } from '../../../shared/schemas/redactions.js';
import { loadSession } from '../sessions/index.js';
import { readAuditEntries } from './audit-log.js';

/** `redactions.list`: the session's redactions, oldest first (404 for another organization's session). */
export async function listRedactions(em: EntityManager, organizationId: string, sessionId: string): Promise<TRedactionList> {
  const session = await loadSession(em, { organizationId }, { sessionId });
  return { data: await readAuditEntries(em, organizationId, session.id, ['redact']) };
}
