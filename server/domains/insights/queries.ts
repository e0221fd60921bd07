import { sql } from '../../db/sql.js';
import { defineQuery } from '../../db/query.js';

/** What insights are drawn from, and whether they are due (finished, transcript made, no insights yet). */
export const insightsSessionFacts = defineQuery({
  columns: {
    organization_id: 'text',
    language: 'text',
    script_id: 'text',
    script_version: 'integer',
    duration_seconds: 'integer',
    questions_answered: 'integer',
    total_questions: 'integer',
    completion_status: 'text | null',
    sentiment: 'text | null',
    sentiment_score: 'double precision | null',
    answers: 'jsonb',
    transcript_status: 'text | null',
    ready_for_insights: 'boolean',
  },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`select organization_id, language, script_id, script_version, duration_seconds, questions_answered, total_questions, completion_status,
            sentiment, sentiment_score, answers, transcript_status,
            status in ('completed', 'abandoned') and transcript_generated_at is not null and insights_generated_at is null as ready_for_insights
       from sessions where id = ${sessionId}`,
  example: { sessionId: 'ses_example' },
});

/** Marks the session's insights made, once: no row when another run did. */
export const claimInsights = defineQuery({
  columns: { id: 'text' },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`update sessions set insights_generated_at = now(), updated_at = now() where id = ${sessionId} and insights_generated_at is null returning id`,
  example: { sessionId: 'ses_example' },
});

export const insertSessionInsights = defineQuery({
  columns: {},
  statement: (insights: {
    sessionId: string;
    organizationId: string;
    summary: string;
    keyQuotes: unknown;
    actionItems: unknown;
    topics: unknown;
    generatedBy: string;
    excludedLowConfidence: number;
  }) =>
    sql`insert into session_insights (session_id, organization_id, summary, key_quotes, action_items, topics, generated_by, excluded_low_confidence, generated_at)
         values (${insights.sessionId}, ${insights.organizationId}, ${insights.summary}, ${JSON.stringify(insights.keyQuotes)}::jsonb, ${JSON.stringify(insights.actionItems)}::jsonb, ${JSON.stringify(insights.topics)}::jsonb, ${insights.generatedBy}, ${insights.excludedLowConfidence}, now()) on conflict (session_id) do nothing`,
  example: {
    sessionId: 'ses_example',
    organizationId: 'org_example',
    summary: '',
    keyQuotes: [] as unknown,
    actionItems: [] as unknown,
    topics: [] as unknown,
    generatedBy: 'builtin',
    excludedLowConfidence: 0,
  },
});
