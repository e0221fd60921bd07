import { sql } from '../../db/sql.js';
import { defineQuery } from '../../db/query.js';

/** Whether a session's transcript is due: finished, and not generated yet. */
export const transcriptDue = defineQuery({
  columns: { organization_id: 'text', language: 'text', finished: 'boolean', generated: 'boolean', preview: 'boolean' },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`select organization_id, language, status in ('completed', 'abandoned') as finished, transcript_generated_at is not null as generated, preview
       from sessions where id = ${sessionId}`,
  example: { sessionId: 'ses_example' },
});

/** Every utterance of the session, with its audio's measured length, in conversation order (what the analysis reads). */
export const utterancesToAnalyze = defineQuery({
  columns: {
    id: 'text',
    speaker: 'text',
    text: 'text | null',
    question_id: 'text | null',
    audio_file_id: 'text | null',
    audio_seconds: 'double precision | null',
    start_time: 'double precision',
    end_time: 'double precision',
  },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`select u.id, u.speaker, u.text, u.question_id, u.audio_file_id, f.duration_seconds as audio_seconds, u.start_time, u.end_time
       from session_utterances u left join session_files f on f.id = u.audio_file_id
      where u.session_id = ${sessionId} order by u.seq`,
  example: { sessionId: 'ses_example' },
});

/** Stores the transcript's outcome on the session, once: no row when another run did (or the session is not finished). */
export const claimTranscript = defineQuery({
  columns: { id: 'text' },
  statement: (outcome: {
    sessionId: string;
    status: 'ready' | 'none';
    noneReason: string | null;
    analyzedBy: string | null;
    sentiment: string | null;
    sentimentScore: number | null;
  }) =>
    sql`update sessions set transcript_generated_at = now(), transcript_status = ${outcome.status}, transcript_none_reason = ${outcome.noneReason}, analyzed_by = ${outcome.analyzedBy}, sentiment = ${outcome.sentiment}, sentiment_score = ${outcome.sentimentScore}, updated_at = now()
        where id = ${outcome.sessionId} and transcript_generated_at is null and status in ('completed', 'abandoned') returning id`,
  example: {
    sessionId: 'ses_example',
    status: 'ready' as 'ready' | 'none',
    noneReason: null as string | null,
    analyzedBy: null as string | null,
    sentiment: null as string | null,
    sentimentScore: null as number | null,
  },
});

interface UtteranceAnalysis {
  id: string;
  sentiment: string;
  score: number;
  keywords: string[];
  detected_language: string | null | undefined;
}

/** Each utterance's analysis (sentiment, keywords, detected language), in one statement. */
export const storeUtteranceAnalysis = defineQuery({
  columns: {},
  statement: ({ sessionId, values }: { sessionId: string; values: UtteranceAnalysis[] }) =>
    sql`update session_utterances u set sentiment = v.sentiment, sentiment_score = v.score, keywords = v.keywords, detected_language = v.detected_language
           from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id text, sentiment text, score double precision, keywords jsonb, detected_language text)
          where u.id = v.id and u.session_id = ${sessionId}`,
  example: {
    sessionId: 'ses_example',
    values: [{ id: 'utt_example', sentiment: 'neutral', score: 0, keywords: [], detected_language: null }] as UtteranceAnalysis[],
  },
});

/**
 * The transcript utterances of several sessions, in conversation order; utterances without text
 * are not part of a transcript. The effective sentiment: a researcher's override wins over the
 * analysis (sentimentOverrides.set).
 */
export const transcriptUtteranceRows = defineQuery({
  columns: {
    id: 'text',
    session_id: 'text',
    speaker: 'text',
    text: 'text',
    question_id: 'text | null',
    value: 'jsonb',
    start_time: 'double precision',
    end_time: 'double precision',
    confidence: 'double precision | null',
    sentiment: 'text | null',
    sentiment_score: 'double precision | null',
    keywords: 'jsonb | null',
    detected_language: 'text | null',
    probe: 'jsonb | null',
    heard_check: 'text | null',
    heard_as: 'text | null',
  },
  statement: ({ sessionIds }: { sessionIds: string[] }) =>
    sql`select id, session_id, speaker, text, question_id, value, start_time, end_time, confidence, coalesce(sentiment_override, sentiment) as sentiment, sentiment_score, keywords, detected_language, probe, heard_check, heard_as
       from session_utterances where session_id = any(${sessionIds}::text[]) and text is not null order by session_id, seq`,
  example: { sessionIds: ['ses_example'] },
});
