import type { TSession } from '../../../shared/schemas/sessions.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadSession } from './load-session.js';
import { toSessionDto } from './serialize.js';
import { turnTakingSummary } from './turn-timing.js';

export async function getSession({ em }: Pick<Deps, 'em'>, caller: Caller, input: { sessionId: string }): Promise<TSession> {
  const session = await loadSession(em, caller, input);
  return toSessionDto(session, await turnTakingSummary(em, caller, { sessionId: session.id }));
}
