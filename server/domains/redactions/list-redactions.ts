import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { TRedactionList } from '../../../shared/schemas/redactions.js';
import { loadSession } from '../sessions/index.js';
import { readAuditEntries } from './audit-log.js';

/** `redactions.list`: the session's redactions, oldest first (404 for another organization's session). */
export async function listRedactions({ em }: Pick<Deps, 'em'>, caller: Caller, input: { sessionId: string }): Promise<TRedactionList> {
  const session = await loadSession(em, caller, { sessionId: input.sessionId });
  return { data: await readAuditEntries(em, caller, { sessionId: session.id, actions: ['redact'] }) };
}
