import type { EntityManager } from '@mikro-orm/postgresql';
import type { TProbeLedger } from '../../../shared/schemas/probes.js';
import type { TAnswerValue } from '../../../shared/schemas/sessions.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';

/** One utterance of a generated transcript, as stored. */
export interface TranscriptRow {
  id: string;
  speaker: 'ai' | 'participant';
  text: string;
  questionId: string | null;
  value: TAnswerValue;
  startTime: number;
  endTime: number;
  confidence: number | null;
  /** The effective one: the override when a researcher set one, else the analysis'. */
  sentiment: TSentiment | null;
  sentimentScore: number | null;
  keywords: string[] | null;
  detectedLanguage: string | null;
  /** AI follow-ups: the probe ledger (why it was asked); null otherwise. */
  probe: TProbeLedger | null;
}

interface Row {
  id: string;
  session_id: string;
  speaker: 'ai' | 'participant';
  text: string;
  question_id: string | null;
  value: TAnswerValue;
  start_time: number;
  end_time: number;
  confidence: number | null;
  sentiment: TSentiment | null;
  sentiment_score: number | null;
  keywords: string[] | null;
  detected_language: string | null;
  probe: TProbeLedger | null;
}

/**
 * The transcript utterances of several sessions in one query (an export reads sessions in
 * batches, never one query per session), in conversation order. Utterances without text (an
 * audio answer nothing could transcribe) are not part of a transcript.
 */
export async function readTranscriptUtterances(em: EntityManager, sessionIds: string[]): Promise<Map<string, TranscriptRow[]>> {
  const bySession = new Map<string, TranscriptRow[]>(sessionIds.map((id) => [id, []]));
  if (sessionIds.length === 0) return bySession;
  const rows = await em.execute<Row[]>(
    // The effective sentiment: a researcher's override wins over the analysis (sentimentOverrides.set).
    `select id, session_id, speaker, text, question_id, value, start_time, end_time, confidence, coalesce(sentiment_override, sentiment) as sentiment, sentiment_score, keywords, detected_language, probe
       from session_utterances where session_id = any(array[?]::text[]) and text is not null order by session_id, seq`,
    [sessionIds],
  );
  for (const row of rows) {
    bySession.get(row.session_id)!.push({
      id: row.id,
      speaker: row.speaker,
      text: row.text,
      questionId: row.question_id,
      value: row.value,
      startTime: row.start_time,
      endTime: row.end_time,
      confidence: row.confidence,
      sentiment: row.sentiment,
      sentimentScore: row.sentiment_score,
      keywords: row.keywords,
      detectedLanguage: row.detected_language,
      probe: row.probe,
    });
  }
  return bySession;
}

/** One session's transcript utterances, in conversation order. */
export async function readSessionUtterances(em: EntityManager, sessionId: string): Promise<TranscriptRow[]> {
  return (await readTranscriptUtterances(em, [sessionId])).get(sessionId)!;
}
