import type { EntityManager } from '@mikro-orm/postgresql';
import type { TProbeLedger } from '../../../shared/schemas/probes.js';
import type { TAnswerValue } from '../../../shared/schemas/sessions.js';
import type { THeardCheck, TSentiment } from '../../../shared/schemas/transcripts.js';
import { transcriptUtteranceRows } from './queries.js';

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
  /** See SessionUtterance.heardCheck. */
  heardCheck: THeardCheck | null;
  heardAs: string | null;
}

/**
 * The transcript utterances of several sessions in one query (an export reads sessions in
 * batches, never one query per session), in conversation order. Utterances without text (an
 * audio answer nothing could transcribe) are not part of a transcript.
 */
export async function readTranscriptUtterances(em: EntityManager, sessionIds: string[]): Promise<Map<string, TranscriptRow[]>> {
  const bySession = new Map<string, TranscriptRow[]>(sessionIds.map((id) => [id, []]));
  if (sessionIds.length === 0) return bySession;
  const rows = await transcriptUtteranceRows.rows(em, { sessionIds });
  for (const row of rows) {
    bySession.get(row.session_id)!.push({
      id: row.id,
      speaker: row.speaker as TranscriptRow['speaker'],
      text: row.text,
      questionId: row.question_id,
      value: row.value as TAnswerValue,
      startTime: row.start_time,
      endTime: row.end_time,
      confidence: row.confidence,
      sentiment: row.sentiment as TSentiment | null,
      sentimentScore: row.sentiment_score,
      keywords: row.keywords as string[] | null,
      detectedLanguage: row.detected_language,
      probe: row.probe as TProbeLedger | null,
      heardCheck: row.heard_check as THeardCheck | null,
      heardAs: row.heard_as,
    });
  }
  return bySession;
}

/** One session's transcript utterances, in conversation order. */
export async function readSessionUtterances(em: EntityManager, sessionId: string): Promise<TranscriptRow[]> {
  return (await readTranscriptUtterances(em, [sessionId])).get(sessionId)!;
}
