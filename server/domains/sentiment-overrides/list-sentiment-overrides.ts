import type { TSentimentOverrideList } from '../../../shared/schemas/sentiment-overrides.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { readAuditEntries } from '../redactions/index.js';
import { loadSession } from '../sessions/index.js';
import { overriddenUtterances } from './queries.js';
import { toUtteranceSentiment } from './utterance-sentiment.js';

/** `sentimentOverrides.list`: the session's overrides now, and every change made to them (404 for another organization's session). */
export async function listSentimentOverrides({ em }: Pick<Deps, 'em'>, caller: Caller, input: { sessionId: string }): Promise<TSentimentOverrideList> {
  const { organizationId } = caller;
  const session = await loadSession(em, { organizationId }, { sessionId: input.sessionId });
  const [rows, history] = await Promise.all([
    overriddenUtterances.rows(em, { organizationId, sessionId: session.id }),
    readAuditEntries(em, caller, { sessionId: session.id, actions: ['sentiment_override', 'sentiment_override_cleared'] }),
  ]);
  return { overrides: rows.map(toUtteranceSentiment), history };
}
