import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCompletionStatus, TParsedAnswer } from '../../../shared/schemas/sessions.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import type { InsightsDraft, TextAnalyzer } from '../../analysis/analyzer.js';
import { addJobs } from '../../jobs/add-jobs.js';
import { loadPlan } from '../sessions/load-session.js';
import { prepareSessionFilesJob } from '../sessions/session-jobs.js';
import { readSessionUtterances } from '../transcripts/read-utterances.js';
import { storedSentiment } from '../transcripts/stored-sentiment.js';

interface SessionFacts {
  organization_id: string;
  language: string;
  script_id: string;
  script_version: number;
  duration_seconds: number;
  questions_answered: number;
  total_questions: number;
  completion_status: TCompletionStatus | null;
  sentiment: TSentiment | null;
  sentiment_score: number | null;
  answers: TParsedAnswer[];
  transcript_status: 'ready' | 'none' | null;
  ready_for_insights: boolean;
}

/**
 * `session__generate_insights`: summary, key quotes, action items and topics from the session's
 * transcript, stored once; then the session's files (merged audio, exports), which are followed by
 * the `interview.completed` announcement. A session without a transcript gets no insights, and the
 * chain goes on. As with the transcript, the slow part runs outside the
 * transaction and the write happens once whatever the retries.
 */
export async function generateInsights(em: EntityManager, services: { analyzer: TextAnalyzer }, sessionId: string): Promise<boolean> {
  const [session] = await em.execute<SessionFacts[]>(
    `select organization_id, language, script_id, script_version, duration_seconds, questions_answered, total_questions, completion_status,
            sentiment, sentiment_score, answers, transcript_status,
            status in ('completed', 'abandoned') and transcript_generated_at is not null and insights_generated_at is null as ready_for_insights
       from sessions where id = ?`,
    [sessionId],
  );
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
    const claimed = await tx.execute<{ id: string }[]>(
      `update sessions set insights_generated_at = now(), updated_at = now() where id = ? and insights_generated_at is null returning id`,
      [sessionId],
    );
    if (claimed.length === 0) return false;
    if (draft) {
      await tx.execute(
        `insert into session_insights (session_id, organization_id, summary, key_quotes, action_items, topics, generated_by, excluded_low_confidence, generated_at)
         values (?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, now()) on conflict (session_id) do nothing`,
        [
          sessionId,
          session.organization_id,
          draft.summary,
          JSON.stringify(draft.keyQuotes),
          JSON.stringify(draft.actionItems),
          JSON.stringify(draft.topics),
          draft.generatedBy,
          excludedLowConfidence,
        ],
      );
    }
    await addJobs(tx, [prepareSessionFilesJob(sessionId)]);
    return true;
  });
}
