import type { EntityManager } from '@mikro-orm/postgresql';
import type { TQuestion } from '../../../shared/schemas/scripts.js';
import { LOW_SPEECH_CONFIDENCE } from '../../../shared/schemas/transcripts.js';
import type { TTurnKind } from '../../../shared/schemas/sessions.js';
import { translator } from '../../../shared/i18n/translate.js';
import { parseStructuredAnswer } from '../../interviewer/answer-parsing.js';
import type { FlowPosition } from './interview-flow.js';
import { heardCheckTurns } from './queries.js';

/**
 * Confidence-aware answers (issue 30): a spoken answer to an open question (or a follow-up)
 * heard with low recognition confidence does not count until the participant says it was heard
 * right. The engine asks one `check_heard` turn ("We heard: “…”. Is that right?") through its
 * usual pending turn; the reply settles it:
 * - typed: the text that counts. The heard text unchanged confirms it; anything else corrects it
 *   (the answer row takes the typed text, confidence 1, and keeps the recognised text as `heardAs`);
 * - spoken: a short yes ("yes", "that's right", "klopt") confirms it; a no alone asks the question
 *   again once; anything else is the answer said again, and replaces it (the first stays marked
 *   unclear). An answer said again is not checked a second time.
 * Only then does the engine decide the turn after the answer, as if the answer had just come.
 * Structured answers have their own read-back (`confirm`, interview-flow.ts): their value is what
 * counts, and the recognizer's confidence is one of its cues.
 */

/** A spoken reply of more words than this is an answer said again, even when it starts with "yes". */
const MAX_YES_WORDS = 4;

/** Whether the recognised text of an answer is too unsure to count unchecked. */
export function isLowConfidence(confidence: number | null | undefined): boolean {
  return confidence !== null && confidence !== undefined && confidence < LOW_SPEECH_CONFIDENCE;
}

/**
 * Whether this answer is read back before it counts: speech (the server's recognition, or the
 * browser's with its confidence) heard unsurely, on free text, and not itself the reply to a check.
 */
export function needsHeardCheck(
  question: Pick<TQuestion, 'type'>,
  position: Pick<FlowPosition, 'pending'>,
  text: string | null,
  confidence: number | null,
): boolean {
  if (text === null || !isLowConfidence(confidence)) return false;
  if (position.pending === 'check_heard' || position.pending === 'confirm') return false;
  return question.type === 'open' || position.pending === 'follow_up';
}

/** The check turn's words, in the interview's language. */
export function heardCheckText(language: string, heard: string): string {
  return translator(language)('interviewer.checkHeard', { text: heard });
}

export type HeardCheckReply =
  /** The heard text stands, as the participant confirmed. */
  | { kind: 'confirmed' }
  /** A typed correction: the text that counts. */
  | { kind: 'corrected'; text: string }
  /** The answer said again: the new recording is the answer. */
  | { kind: 'replaced' }
  /** A bare no: nothing to go on but that the heard text was wrong. */
  | { kind: 'denied' };

function normalized(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** How the reply to a check settles it (see the module comment). */
export function settleHeardCheck(heard: string, reply: { text: string | null; spoken: boolean }, language: string): HeardCheckReply {
  if (!reply.spoken) {
    const typed = reply.text?.trim() ?? '';
    return normalized(typed) === normalized(heard) ? { kind: 'confirmed' } : { kind: 'corrected', text: typed };
  }
  if (reply.text === null) return { kind: 'denied' };
  const short = normalized(reply.text).split(' ').length <= MAX_YES_WORDS;
  const polarity = parseStructuredAnswer({ type: 'yes_no' }, reply.text, language)?.value ?? null;
  if (short && polarity === true) return { kind: 'confirmed' };
  if (short && polarity === false) return { kind: 'denied' };
  return { kind: 'replaced' };
}

/** The check being answered: the unclear answer it reads back, and the turn that answer replied to. */
export interface PendingHeardCheck {
  /** The answer row under check (`heard_check` = 'unclear'). */
  answerId: string;
  heard: string;
  confidence: number | null;
  /** The kind of the turn the answer replied to: the flow goes on from there once the check is settled. */
  answeredKind: TTurnKind;
  /** When the check turn was put (the next turn never starts before it). */
  checkEndTime: number;
}

/**
 * Reads the pending check from the session's turns: the check turn, the answer just before it
 * and the turn that answer replied to (asked, answered and checked in one transaction each, so
 * they are consecutive).
 */
export async function pendingHeardCheckOf(em: EntityManager, session: { id: string; pendingUtteranceId?: string | null }): Promise<PendingHeardCheck | null> {
  const rows = await heardCheckTurns.rows(em, { sessionId: session.id, checkId: session.pendingUtteranceId ?? null });
  const [check, answer, answered] = rows.map((row) => ({ ...row, kind: row.kind as TTurnKind | 'answer' }));
  if (
    !check ||
    check.kind !== 'check_heard' ||
    !answer ||
    answer.speaker !== 'participant' ||
    answer.heard_check !== 'unclear' ||
    answer.text === null ||
    !answered
  )
    return null;
  return {
    answerId: answer.id,
    heard: answer.text,
    confidence: answer.confidence,
    answeredKind: answered.kind === 'answer' ? 'question' : answered.kind,
    checkEndTime: check.end_time,
  };
}
