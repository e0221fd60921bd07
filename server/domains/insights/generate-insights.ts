import type { TCompletionStatus, TParsedAnswer } from '../../../shared/schemas/sessions.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import type { InsightsDraft, TextAnalyzer } from '../../analysis/analyzer.js';
import type { RowOf } from '../../db/query.js';
import { addJobs } from '../../jobs/add-jobs.js';
import type { Deps } from '../common/deps.js';
import { loadPlan, prepareSessionFilesJob } from '../sessions/index.js';
import { readSessionUtterances } from '../transcripts/index.js';
import { storedSentiment } from '../common/stored-sentiment.js';
import { claimInsights, insertSessionInsights, insightsSessionFacts } from './queries.js';

type SessionFacts = Omit<RowOf<typeof insightsSessionFacts.columns>, 'completion_status' | 'sentiment' | 'answers' | 'transcript_status'> & {
  completion_status: TCompletionStatus | null;
  sentiment: TSentiment | null;
  answers: TParsedAnswer[];
  transcript_status: 'ready' | 'none' | null;
};

/**
 * `session__generate_insights`: summary, key quotes, action items and topics from the session's
 * transcript, stored once; then the session's files (merged audio, exports), which are followed by
 * the `interview.completed` announcement. A session without a transcript gets no insights, and the
 * chain goes on. As with the transcript, the slow part runs outside the
 * transaction and the write happens once whatever the retries.
 *
 * No caller: the job names a session, whose row says its organization.
 */
export async function generateInsights(
  { em, services }: Pick<Deps, 'em'> & { services: { analyzer: TextAnalyzer } },
  input: { sessionId: string },
): Promise<boolean> {
  const { sessionId } = input;
  const session = (await insightsSessionFacts.first(em, { sessionId })) as SessionFacts | undefined;
  if (!session?.ready_for_insights) return false;

  let draft: InsightsDraft | null = null;
  let excludedLowConfidence = 0;
  if (session.transcript_status === 'ready') {
    const [rows, plan] = await Promise.all([
      readSessionUtterances(em, sessionId),
      loadPlan(em, { scriptId: session.script_id, scriptVersion: session.script_version }),
    ]);
    // Words that may not be what was said (heard with low confidence, never confirmed or corrected) make no quote, topic or summary.
    const utterances = rows.filter((row) => !(row.speaker === 'participant' && row.heardCheck === 'unclear'));
    excludedLowConfidence = rows.length - utterances.length;
    draft = await services.analyzer.extractInsights({
      language: session.language,
      questions: plan.questions.map((question) => ({ id: question.id, text: question.text, type: question.type })),
      utterances: utterances.map((row) => ({
        id: row.id,
        speaker: row.speaker,
        text: row.text,
        questionId: row.questionId,
        startTime: row.startTime,
        sentiment: row.sentiment ?? 'neutral',
        score: row.sentimentScore ?? 0,
        keywords: row.keywords ?? [],
      })),
      answers: session.answers,
      session: {
        durationSeconds: session.duration_seconds,
        questionsAnswered: session.questions_answered,
        totalQuestions: session.total_questions,
        completionStatus: session.completion_status,
        sentiment: storedSentiment(session.sentiment, session.sentiment_score),
      },
    });
  }

  return em.transactional(async (tx) => {
    const claimed = await claimInsights.rows(tx, { sessionId });
    if (claimed.length === 0) return false;
    if (draft) {
      await insertSessionInsights.rows(tx, {
        sessionId,
        organizationId: session.organization_id,
        summary: draft.summary,
        keyQuotes: draft.keyQuotes,
        actionItems: draft.actionItems,
        topics: draft.topics,
        generatedBy: draft.generatedBy,
        excludedLowConfidence,
      });
    }
    await addJobs(tx, [prepareSessionFilesJob(sessionId)]);
    return true;
  });
}
