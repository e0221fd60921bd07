import type { EntityManager } from '@mikro-orm/postgresql';
import { requestedPiiKinds } from '../../../shared/schemas/pii.js';
import type { z } from 'zod';
import type { TInsights, ZInsightsQuery } from '../../../shared/schemas/transcripts.js';
import type { SessionRedactor } from '../../analysis/pii-redaction.js';
import { SessionInsights } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadSession } from '../sessions/index.js';
import { readSessionUtterances, redactorFor } from '../transcripts/index.js';

/** The insights record; with a redactor, every text in it redacted as a piece of the session's words. */
function toInsightsDto(insights: SessionInsights, sessionId: string, redactor: SessionRedactor | null): TInsights {
  const clean = redactor ? (text: string) => redactor.piece(text) : (text: string) => text;
  return {
    sessionId,
    summary: clean(insights.summary),
    keyQuotes: insights.keyQuotes.map((quote) => ({ text: clean(quote.text), utteranceId: quote.utteranceId })),
    actionItems: insights.actionItems.map(clean),
    topics: insights.topics.map((topic) => ({ label: clean(topic.label), utteranceIds: topic.utteranceIds })),
    generatedBy: insights.generatedBy,
    excludedLowConfidence: insights.excludedLowConfidence,
    generatedAt: insights.generatedAt.toISOString(),
  };
}

/** The insights of a session the caller has already loaded (and so may see), or null while there are none. */
export async function findInsights(em: EntityManager, sessionId: string): Promise<SessionInsights | null> {
  return em.findOne(SessionInsights, { session: sessionId }, { disableIdentityMap: true });
}

/** `GET /v1/sessions/{sessionId}/insights`: 409 INSIGHTS_NOT_READY (`pending` or `none`) before they exist. */
export async function getInsights({ em }: Pick<Deps, 'em'>, caller: Caller, input: z.infer<typeof ZInsightsQuery>): Promise<TInsights> {
  const redactKinds = requestedPiiKinds(input);
  const session = await loadSession(em, caller, input);
  const insights = await findInsights(em, session.id);
  if (insights) {
    // Quotes and summaries are pieces of the utterances: redacted knowing what the whole utterances hold.
    const redactor = redactKinds.length > 0 ? redactorFor({ rows: await readSessionUtterances(em, session.id) }, redactKinds) : null;
    return toInsightsDto(insights, session.id, redactor);
  }
  if (session.transcriptStatus === 'none') {
    throw new AppError('INSIGHTS_NOT_READY', `Session ${session.id} has no insights: it has no transcript to draw them from.`, {
      sessionId: session.id,
      status: 'none',
    });
  }
  throw new AppError('INSIGHTS_NOT_READY', `Session ${session.id} has no insights yet; they are made after its transcript.`, {
    sessionId: session.id,
    status: 'pending',
    sessionStatus: session.status,
  });
}
