import type { EntityManager } from '@mikro-orm/postgresql';
import type { TProbeLedger } from '../../../shared/schemas/probes.js';
import type { TAnswerValue } from '../../../shared/schemas/sessions.js';
import { type Session, SessionUtterance } from '../../entities/index.js';
import type { UtteranceKind } from '../../entities/session-utterance.js';
import { newId } from '../../lib/ids.js';
import type { UtteranceRow } from './queries.js';

/** Seconds an AI utterance takes to say, at a calm 150 words a minute, for its `endTime`. */
export function speakingSeconds(text: string): number {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return Math.round((words / 2.5) * 100) / 100;
}

export interface UtteranceFields {
  speaker: 'ai' | 'participant';
  kind: UtteranceKind;
  text: string | null;
  questionId: string | null;
  startTime: number;
  endTime: number;
  value?: TAnswerValue | undefined;
  confidence?: number | null | undefined;
  audioFileId?: string | null | undefined;
  decidedBy?: string | null | undefined;
  /** `follow_up` turns: the probe ledger. */
  probe?: TProbeLedger | null | undefined;
}

/** Appends one utterance to the session's conversation (the session row is locked by the caller). */
export function recordUtterance(tx: EntityManager, session: Session, fields: UtteranceFields): SessionUtterance {
  const utterance = tx.create(SessionUtterance, {
    id: newId('utt'),
    organization: session.organization.id,
    session,
    seq: session.nextSeq,
    speaker: fields.speaker,
    kind: fields.kind,
    text: fields.text,
    questionId: fields.questionId,
    value: fields.value === undefined ? null : fields.value,
    startTime: Math.round(fields.startTime * 1000) / 1000,
    endTime: Math.round(fields.endTime * 1000) / 1000,
    confidence: fields.confidence ?? null,
    audioFileId: fields.audioFileId ?? null,
    decidedBy: fields.decidedBy ?? null,
    probe: fields.probe ?? null,
  });
  session.nextSeq += 1;
  return utterance;
}

/**
 * A new utterance row for a statement that writes turns (recordAnswerTurn, recordInterviewStart),
 * with what every turn has (times rounded to the millisecond, as recordUtterance does); the rest empty.
 */
export function utteranceRow(
  seq: number,
  turn: { speaker: 'ai' | 'participant'; kind: UtteranceKind; text: string | null; questionId: string | null; startTime: number; endTime: number },
): UtteranceRow {
  return {
    id: newId('utt'),
    seq,
    speaker: turn.speaker,
    kind: turn.kind,
    // The rows travel as JSON, whose parser refuses a lone surrogate (a text parameter stores U+FFFD).
    text: turn.text?.toWellFormed() ?? null,
    question_id: turn.questionId,
    value: null,
    start_time: Math.round(turn.startTime * 1000) / 1000,
    end_time: Math.round(turn.endTime * 1000) / 1000,
    confidence: null,
    audio_file_id: null,
    decided_by: null,
    probe: null,
    heard_check: null,
    speech_ended_at: null,
    end_of_turn_at: null,
    manual_end: null,
    recognition_ms: null,
    interviewer_ms: null,
  };
}
