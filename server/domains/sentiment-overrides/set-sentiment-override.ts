import type { CustomerAuth } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSentimentOverride, TSetSentimentOverrideInput } from '../../../shared/schemas/sentiment-overrides.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import { sentimentSentence } from '../../analysis/builtin-insights.js';
import { sessionSentiment } from '../../analysis/session-sentiment.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { addJobs } from '../../jobs/add-jobs.js';
import type { Logger } from '../../logger.js';

import { authorOf } from '../common/author.js';
import { changeSessionTranscript, type ExportServices, rewriteSessionExports, writeAuditEntry } from '../redactions/index.js';
import { loadSession } from '../sessions/index.js';
import { storedSentiment } from '../common/stored-sentiment.js';
import { toUtteranceSentiment } from './utterance-sentiment.js';
import {
  participantSentiments,
  replaceSummarySentence,
  sessionSentimentForUpdate,
  setUtteranceOverride,
  storeSessionSentiment,
  utteranceSentimentForUpdate,
} from './queries.js';
import { deleteFilesJob } from '../../storage/delete-unrecorded-files.js';

/**
 * The score an overridden utterance weighs in its session's sentiment with: its own when the
 * override agrees with the analysis, else the middle of the label's side of the analysis' neutral
 * band (|score| < 0.25 is neutral), so the session's score moves the way the label did.
 */
const OVERRIDE_SCORES: Record<TSentiment, number> = { positive: 0.5, neutral: 0, negative: -0.5 };

/**
 * The session's overall sentiment again, from its participant's utterances with their effective
 * labels, stored where every reader takes it from (sessions.sentiment): the session record, lists,
 * exports, the PDF, insights and webhooks then show it without knowing of overrides.
 */
async function refreshSessionSentiment(tx: EntityManager, sessionId: string): Promise<{ overall: TSentiment; score: number } | null> {
  const rows = await participantSentiments.rows(tx, { sessionId });
  const overall = sessionSentiment(
    rows.map((row) => {
      const label = (row.sentiment_override ?? row.sentiment) as TSentiment;
      const score = row.sentiment_override === null || row.sentiment_override === row.sentiment ? (row.sentiment_score ?? 0) : OVERRIDE_SCORES[label];
      return { speaker: row.speaker, text: row.text, sentiment: label, score };
    }),
  );
  await storeSessionSentiment.rows(tx, { sessionId, overall });
  return overall;
}

/** The built-in summary states the overall sentiment in one sentence: that sentence follows the session's. */
async function refreshSummarySentence(
  tx: EntityManager,
  sessionId: string,
  before: { overall: TSentiment; score: number } | null,
  after: { overall: TSentiment; score: number } | null,
): Promise<void> {
  if (!before || !after || (before.overall === after.overall && before.score === after.score)) return;
  await replaceSummarySentence.rows(tx, { sessionId, before: sentimentSentence(before), after: sentimentSentence(after) });
}

export interface SentimentOverrideServices extends ExportServices {
  logger: Pick<Logger, 'warn'>;
}

/**
 * `sentimentOverrides.set`: a researcher's label for one participant answer (null clears it), the
 * session's overall sentiment recomputed in the same transaction, and an audit entry with the old
 * and new values. The session's stored exports (transcript JSON, PDF report) are made again in
 * that transaction, as a redaction makes them (the old files deleted by the job it adds), so the
 * files served for download show the label too. Setting the value it already has changes nothing
 * and logs nothing.
 */
export async function setSentimentOverride(
  { em, services }: { em: EntityManager; services: SentimentOverrideServices },
  auth: CustomerAuth,
  input: TSetSentimentOverrideInput,
): Promise<TSentimentOverride> {
  const session = await loadSession(em, auth, { sessionId: input.sessionId });
  if (!session.transcriptGeneratedAt) {
    throw new AppError('TRANSCRIPT_NOT_READY', `Session ${session.id} has not been analysed yet; its sentiment can be overridden once its transcript exists.`, {
      sessionId: session.id,
      status: 'pending',
      sessionStatus: session.status,
    });
  }
  const actor = await authorOf(em, auth);
  return changeSessionTranscript(em, services, session.id, async ({ tx, work, written }) => {
    const row = await utteranceSentimentForUpdate.first(tx, { organizationId: auth.organizationId, sessionId: session.id, utteranceId: input.utteranceId });
    if (!row) throw notFound('utterance', input.utteranceId, 'utteranceId');
    if (row.speaker !== 'participant' || row.text === null || row.text.trim() === '') {
      throw validationError([{ path: 'utteranceId', message: "only a participant's answer with text has a sentiment to override" }]);
    }
    const sessionRow = await sessionSentimentForUpdate.first(tx, { sessionId: session.id });
    const before = storedSentiment(sessionRow!.sentiment as TSentiment | null, sessionRow!.sentiment_score);
    if (row.sentiment_override === input.sentiment) {
      return { ...toUtteranceSentiment(row), sessionId: session.id, changed: false, sessionSentiment: before, entry: null };
    }
    const updated = await setUtteranceOverride.first(tx, { utteranceId: row.id, sentiment: input.sentiment, actor });
    const after = await refreshSessionSentiment(tx, session.id);
    await refreshSummarySentence(tx, session.id, before, after);
    const exports = await rewriteSessionExports(em, tx, services, session.id, work);
    written.push(...exports.writtenKeys);
    if (exports.obsoleteKeys.length > 0) await addJobs(tx, [deleteFilesJob(exports.obsoleteKeys)]);
    const entry = await writeAuditEntry(tx, {
      organizationId: auth.organizationId,
      sessionId: session.id,
      utteranceId: row.id,
      action: input.sentiment === null ? 'sentiment_override_cleared' : 'sentiment_override',
      actor,
      reason: input.reason ?? null,
      details: {
        analyzed: row.sentiment,
        previousOverride: row.sentiment_override,
        override: input.sentiment,
        previousEffective: row.sentiment_override ?? row.sentiment,
        effective: input.sentiment ?? row.sentiment,
        sessionSentiment: { before, after },
        exportsRewritten: exports.rewritten,
      },
    });
    return { ...toUtteranceSentiment(updated!), sessionId: session.id, changed: true, sessionSentiment: after, entry };
  });
}
