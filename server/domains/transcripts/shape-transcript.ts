import { requestedPiiKinds, SPEC_PII_KINDS, type TPiiKind } from '../../../shared/schemas/pii.js';
import type { TTranscript, TTranscriptQuery, TTranscriptUtterance } from '../../../shared/schemas/transcripts.js';
import { PII_MARKERS, SessionRedactor } from '../../analysis/pii-redaction.js';
import type { TranscriptRow } from './read-utterances.js';

/** What a transcript is made from: the session's facts and its stored utterances. */
export interface TranscriptSource {
  sessionId: string;
  language: string;
  durationSeconds: number;
  generatedAt: Date;
  /** Questions of type rating, yes_no or multiple_choice: their answers carry `value`. */
  structuredQuestionIds: ReadonlySet<string>;
  rows: TranscriptRow[];
}

export type TranscriptOptions = Pick<TTranscriptQuery, 'include_sentiment' | 'include_keywords' | 'redact_pii' | 'speaker'> &
  Partial<Pick<TTranscriptQuery, 'redact_kinds'>>;

/** Everything a stored transcript holds: what exports and reports start from. */
export const FULL_TRANSCRIPT: TranscriptOptions = { include_sentiment: true, include_keywords: true, redact_pii: false, speaker: 'all' };

/**
 * The transcript as the API answers it, with the caller's options applied: the speaker filter,
 * sentiment and keywords included or not, PII redacted in the text and in the keywords (a
 * keyword that touches an email or a phone number is left out). A caller that redacts more of the
 * session passes the redactor it made for it (with `redact_pii`/`redact_kinds`), so there is one per session.
 */
export function shapeTranscript(
  source: TranscriptSource,
  options: TranscriptOptions,
  redactor: SessionRedactor | null = redactorFor(source, requestedPiiKinds(options)),
): TTranscript {
  const utterances: TTranscriptUtterance[] = [];
  for (const row of source.rows) {
    if (options.speaker !== 'all' && row.speaker !== options.speaker) continue;
    const utterance: TTranscriptUtterance = {
      id: row.id,
      speaker: row.speaker,
      text: redactor ? redactor.utterance(row.text) : row.text,
      startTime: row.startTime,
      endTime: row.endTime,
      // Typed text and the interviewer's own words are exactly what was said.
      confidence: row.confidence ?? 1,
      questionId: row.questionId,
      // A probe's picked-up words are the participant's: redacted like the rest of their text.
      probe: row.probe && redactor && row.probe.pickedUp !== null ? { ...row.probe, pickedUp: redactor.piece(row.probe.pickedUp) } : row.probe,
    };
    if (row.heardCheck === 'unclear') utterance.lowConfidence = true;
    if (row.heardCheck === 'confirmed') utterance.heardConfirmed = true;
    if (row.heardCheck === 'corrected' && row.heardAs !== null) utterance.heardAs = redactor ? redactor.utterance(row.heardAs) : row.heardAs;
    if (options.include_sentiment && row.sentiment) utterance.sentiment = row.sentiment;
    if (options.include_keywords) utterance.keywords = redactor ? redactor.keywords(row.text, row.keywords ?? []) : (row.keywords ?? []);
    if (row.speaker === 'participant' && row.questionId && source.structuredQuestionIds.has(row.questionId)) utterance.value = row.value;
    if (row.detectedLanguage) utterance.detectedLanguage = row.detectedLanguage;
    utterances.push(utterance);
  }
  return {
    sessionId: source.sessionId,
    language: source.language,
    duration: source.durationSeconds,
    utterances,
    generatedAt: source.generatedAt.toISOString(),
  };
}

/** Redaction of these kinds (the spec's four unless told) for pieces of this transcript (see SessionRedactor); none for no kind. */
export function redactorFor(source: Pick<TranscriptSource, 'rows'>, kinds: readonly TPiiKind[] = SPEC_PII_KINDS): SessionRedactor | null {
  return kinds.length === 0
    ? null
    : new SessionRedactor(
        source.rows.map((row) => row.text),
        kinds,
      );
}

/**
 * The participant as results show them: with a redactor, the email is its marker and the name is
 * redacted as a piece (share-link participants type their own name; some type an address or a number).
 */
export function redactedParticipant(
  participant: { email: string | null; name: string | null },
  redactor: SessionRedactor | null,
): { email: string | null; name: string | null } {
  if (!redactor) return participant;
  return { email: participant.email === null ? null : PII_MARKERS.email, name: participant.name === null ? null : redactor.piece(participant.name) };
}
