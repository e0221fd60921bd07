import type { Deps } from '../common/deps.js';
import { systemCaller } from '../common/caller.js';
import { publishEvent } from '../webhooks/index.js';
import { lockSessionStartToAnnounce, sessionStartAnnounced } from './queries.js';
import { loadSessionFacts } from './session-event-facts.js';

/**
 * `session__announce_start`: a session's `session.started` event, once, with a delivery to every
 * endpoint that wants it. The event is dated when the first question was asked (`startedAt`), not
 * when this job ran. A preview, or a session still waiting for consent, announces nothing (the
 * consent's start adds the job again). Once: a re-run, even a concurrent one, finds the event recorded.
 *
 * No caller: the job names a session, whose row says its organization.
 */
export async function announceStart({ em }: Pick<Deps, 'em'>, input: { sessionId: string }): Promise<boolean> {
  const { sessionId } = input;
  return em.transactional(async (tx) => {
    // Locked first, then read in a statement of its own: under READ COMMITTED that statement sees
    // an event a concurrent run committed while this one waited for the lock (one in the same
    // statement would not), so two runs publish once.
    const session = await lockSessionStartToAnnounce.first(tx, { sessionId });
    if (!session || session.preview || session.started_at === null) return false;
    if ((await sessionStartAnnounced.first(tx, { sessionId }))!.announced) return false;
    const startedAt = new Date(session.started_at);
    const facts = await loadSessionFacts(tx, sessionId);
    await publishEvent({ em: tx }, systemCaller(session.organization_id), {
      type: 'session.started',
      sessionId,
      facts: { ...facts, startedAt: startedAt.toISOString() },
      occurredAt: startedAt,
    });
    return true;
  });
}
