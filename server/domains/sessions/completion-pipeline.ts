import type { Deps } from '../common/deps.js';
import { systemCaller } from '../common/caller.js';
import { publishEvent } from '../webhooks/index.js';
import { claimCompletionAnnouncement } from './queries.js';
import { loadCompletedFacts } from './session-event-facts.js';

/**
 * `session__announce_completion`: after a finished session's transcript, insights and files, its
 * `interview.completed` event, once, with a delivery to every endpoint that wants it (Design B's
 * `completion_status` says completed, timed_out or abandoned). Its timestamp is when it is
 * published, the moment the results exist (receivers that refuse old events measure from the
 * first send); its transcript and recording links already work when it is delivered.
 *
 * No caller: the job names a session, whose row says its organization.
 */
export async function announceCompletion({ em }: Pick<Deps, 'em'>, input: { sessionId: string }): Promise<boolean> {
  const { sessionId } = input;
  return em.transactional(async (tx) => {
    const session = await claimCompletionAnnouncement.first(tx, { sessionId });
    if (!session) return false;
    // A preview is the researcher trying the script: no receiver hears of it (its chain still ends here).
    if (session.preview) return true;
    const facts = await loadCompletedFacts(tx, sessionId);
    await publishEvent({ em: tx }, systemCaller(session.organization_id), {
      type: 'interview.completed',
      sessionId,
      facts,
      occurredAt: new Date(session.announced_at),
    });
    return true;
  });
}
