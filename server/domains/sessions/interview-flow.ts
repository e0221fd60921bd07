import type { TFollowUpDepth, TProbeLedger } from '../../../shared/schemas/probes.js';
import type { TQuestion, TScriptSettings } from '../../../shared/schemas/scripts.js';
import type { TAnswerValue } from '../../../shared/schemas/sessions.js';
import type { InterviewPending } from '../../entities/session.js';
import { type AssessedAnswer, assessStructuredAnswer, parseStructuredAnswer, withoutLeadingAnswer } from '../../interviewer/answer-parsing.js';
import type { StructuredAnswerParser } from '../../interviewer/llm-answer-parser.js';
import type { ConversationTurn, Interviewer } from '../../interviewer/interviewer.js';
import { phrasesFor } from '../../interviewer/phrases.js';

/** Follow-ups allowed on an open question when neither the question nor the script says. */
const DEFAULT_MAX_FOLLOW_UPS = 1;

/** Where the conversation stands on the current question. */
export interface FlowPosition {
  questionIndex: number;
  pending: InterviewPending;
  followUpsAsked: number;
  reAsked: boolean;
  /** While a confirmation is pending: the value it reads back. */
  confirming?: TAnswerValue | undefined;
}

/** The AI's next utterance, as the engine decided it. */
export type NextTurn =
  | { kind: 'question'; questionIndex: number; text: string; decidedBy: string }
  /** `probe`: why it was asked (recorded on the utterance). */
  | { kind: 'follow_up'; text: string; decidedBy: string; probe: TProbeLedger }
  | { kind: 're_ask'; text: string; decidedBy: string }
  /** An unsure answer read back for a yes or no; `value` is what a yes takes. */
  | { kind: 'confirm'; text: string; decidedBy: string; value: TAnswerValue }
  /** A spoken answer heard unsurely, read back before it counts (heard-check.ts); `heard` is the text read back. */
  | { kind: 'check_heard'; text: string; decidedBy: string; heard: string }
  | { kind: 'closing'; text: string; decidedBy: string };

/** The AI's turns on the current question so far (its question and probes, oldest first), and the words those probes picked up. */
export interface QuestionHistory {
  asked: string[];
  pickedUp: string[];
}

export interface AnswerOutcome {
  /** The value this answer carries (structured questions only; null: unreadable). */
  utteranceValue: TAnswerValue | undefined;
  /** The question's final value, once decided (structured questions only). */
  finalValue: TAnswerValue | undefined;
  /** How sure `finalValue` is (0–1; null for a null value), when it is decided. */
  finalConfidence?: number | null;
  next: NextTurn;
  position: FlowPosition;
}

/** Probes each `followUp.depth` allows on a question (issue 30): `low` is at most one, asked only when the answer leaves something open. */
export const DEPTH_FOLLOW_UPS: Record<TFollowUpDepth, number> = { low: 1, medium: 1, high: 2, deep: 3 };

/**
 * design.md "Parsed answers": `question.followUp.maxFollowUps` wins over the script's
 * `settings.maxFollowUps`; `followUp.enabled: false` means none. `followUp.depth` sets the limit
 * of its question (DEPTH_FOLLOW_UPS), like a question's own `maxFollowUps` it wins over the
 * script's setting; with both on the question the smaller wins (`maxFollowUps` caps the depth).
 * Without any of them, open questions allow one follow-up and structured ones none unless the
 * question asks for it.
 */
export function followUpLimitOf(question: TQuestion, settings: TScriptSettings): number {
  const followUp = question.followUp;
  if (followUp?.enabled === false) return 0;
  if (followUp?.depth !== undefined) return Math.min(DEPTH_FOLLOW_UPS[followUp.depth], followUp.maxFollowUps ?? Number.POSITIVE_INFINITY);
  if (followUp?.maxFollowUps !== undefined) return followUp.maxFollowUps;
  if (settings.maxFollowUps !== undefined) return settings.maxFollowUps;
  if (question.type === 'open' || followUp?.enabled === true) return DEFAULT_MAX_FOLLOW_UPS;
  return 0;
}

export interface DecideAfterAnswerInput {
  questions: TQuestion[];
  systemPrompt: string;
  settings: TScriptSettings;
  language: string;
  position: FlowPosition;
  /** The participant's answer; null for audio nothing could transcribe. */
  answer: string | null;
  /** `answer` is null because a recognizer that hears the interview's language heard nothing it could read (not for a failure or no recognizer). */
  unheard?: boolean | undefined;
  /** The recogniser's confidence in `answer` (0–1), or the browser's; null or absent for typed text. */
  confidence?: number | null | undefined;
  /** The conversation so far, this answer included (empty for interviewers that do not use it). */
  conversation: ConversationTurn[];
  /** What the AI asked on the current question before this answer, and the words its probes picked up (`earlierTurnsOn` in answer-interview.ts). */
  onQuestion: QuestionHistory;
  interviewer: Interviewer;
  /** Structured answers through a model (LLM_BASE_URL); absent: the built-in parser alone. */
  answerParser?: StructuredAnswerParser | undefined;
}

/**
 * The engine's rules for the turn after an answer, whatever the interviewer: questions in
 * script order, none skipped; a required structured answer that cannot be read is asked again
 * once, then recorded as null (so is audio a recognizer that hears the language made nothing
 * of); follow-ups only within their limit (the interviewer chooses whether, and words them);
 * after the last question, the closing. Audio without text otherwise moves on (no recognizer,
 * its failure, a language it does not hear).
 *
 * A structured answer understood but not surely (`assessStructuredAnswer`: hedged, said as a
 * question, alternatives, self-corrected, heard with low recogniser confidence, or a confidence
 * below `CONFIRMATION_THRESHOLD`, such as a paraphrase misheard) is read back
 * in one short `confirm` turn, whatever the interviewer (the parser decides, never an LLM). Its
 * reply: yes takes the value; a different value said surely ("no, a three") takes that one;
 * anything else asks the question again briefly, once (after which the value is null). The value
 * is recorded once, on the reply that settled it. "None of those" (no option) is read back the
 * same way ("So none of these — is that right?"): yes records null, a value said instead takes it;
 * a confirmation, not a re-ask, because the participant did answer, and a re-ask would read the
 * same options again to someone who just rejected them.
 */
export async function decideAfterAnswer(input: DecideAfterAnswerInput): Promise<AnswerOutcome> {
  const { questions, position, answer, language, settings } = input;
  const question = questions[position.questionIndex]!;
  let utteranceValue: TAnswerValue | undefined;
  let finalValue: TAnswerValue | undefined;
  let finalConfidence: number | null = null;

  if (question.type !== 'open' && position.pending === 'confirm') {
    const settled = answer === null ? null : settleConfirmation(question, position.confirming ?? null, answer, language, input.confidence);
    if (settled === null) {
      if (!position.reAsked) {
        return {
          utteranceValue: null,
          finalValue: undefined,
          next: { kind: 're_ask', text: phrasesFor(language).askAgainBriefly(question), decidedBy: 'engine' },
          position: { ...position, pending: 're_ask', reAsked: true, confirming: undefined },
        };
      }
      utteranceValue = finalValue = null;
    } else {
      utteranceValue = finalValue = settled.value;
      finalConfidence = settled.value === null ? null : settled.confidence;
    }
  } else if (question.type !== 'open' && position.pending !== 'follow_up') {
    const assessed = answer === null ? null : await assessAnswer(input, question, answer);
    if (assessed?.certainty === 'unsure' && (assessed.value !== null || assessed.noneOfThese)) {
      return {
        utteranceValue: null,
        finalValue: undefined,
        next: { kind: 'confirm', text: phrasesFor(language).confirm(question, assessed.value), decidedBy: 'engine', value: assessed.value },
        position: { ...position, pending: 'confirm', confirming: assessed.value },
      };
    }
    const value = assessed?.certainty === 'sure' ? assessed.value : null;
    utteranceValue = value;
    finalConfidence = value === null ? null : (assessed?.confidence ?? null);
    // Audio nothing could transcribe moves on, unless the recognizer heard it and made nothing of it: that is an answer that cannot be read.
    if (value === null && (answer !== null || input.unheard === true) && question.required && !position.reAsked) {
      return {
        utteranceValue,
        finalValue: undefined,
        next: { kind: 're_ask', text: phrasesFor(language).reAsk(question), decidedBy: 'engine' },
        position: { ...position, pending: 're_ask', reAsked: true },
      };
    }
    finalValue = value;
  }

  let transition: string | undefined;
  let decidedBy = 'engine';
  const limit = followUpLimitOf(question, settings);
  if (answer !== null && position.followUpsAsked < limit) {
    const decision = await input.interviewer.decide({
      systemPrompt: input.systemPrompt,
      language,
      questions,
      current: question,
      followUpsAsked: position.followUpsAsked,
      followUpLimit: limit,
      depth: question.followUp?.depth ?? null,
      askedOnQuestion: input.onQuestion.asked,
      pickedUpBefore: input.onQuestion.pickedUp,
      answer,
      conversation: input.conversation,
    });
    decidedBy = decision.decidedBy ?? input.interviewer.name;
    if (decision.action === 'follow_up') {
      return {
        utteranceValue,
        finalValue,
        finalConfidence,
        // The engine counts the probes on the question, whoever worded this one.
        next: { kind: 'follow_up', text: decision.text, decidedBy, probe: { ...decision.probe, probeNumber: position.followUpsAsked + 1 } },
        position: { ...position, pending: 'follow_up', followUpsAsked: position.followUpsAsked + 1 },
      };
    }
    transition = decision.transition;
  }

  const nextIndex = position.questionIndex + 1;
  const next = questions[nextIndex];
  if (!next) {
    const closing = phrasesFor(language).closing;
    return {
      utteranceValue,
      finalValue,
      finalConfidence,
      next: { kind: 'closing', text: transition ? `${transition} ${closing}` : closing, decidedBy },
      position,
    };
  }
  return {
    utteranceValue,
    finalValue,
    finalConfidence,
    next: { kind: 'question', questionIndex: nextIndex, text: transition ? `${transition} ${next.text}` : next.text, decidedBy },
    position: { questionIndex: nextIndex, pending: 'question', followUpsAsked: 0, reAsked: false },
  };
}

/**
 * The reply to a confirmation of `candidate`: yes (and no other value) takes it; a value of the
 * question said surely, other than the candidate, takes that one ("no, a three", "three", and
 * "no three" as a recogniser writes it: see `withoutLeadingAnswer`); null for anything else (a no without a value, a value said unsurely, nothing readable). On a yes/no
 * question the reply's polarity is the confirmation: a bare "no" there says the read-back was
 * wrong, not that the answer is no, so it asks again.
 */
export function settleConfirmation(
  question: TQuestion,
  candidate: TAnswerValue,
  reply: string,
  language: string,
  confidence?: number | null,
): { value: TAnswerValue; confidence: number | null } | null {
  const confirmation = assessStructuredAnswer({ type: 'yes_no' }, reply, language, { confidence });
  const polarity = parseStructuredAnswer({ type: 'yes_no' }, reply, language)?.value ?? null;
  if (question.type !== 'yes_no') {
    let assessed = assessStructuredAnswer(question, reply, language, { confidence });
    const rest = assessed.value === null ? withoutLeadingAnswer(reply, language) : null;
    if (rest !== null) assessed = assessStructuredAnswer(question, rest, language, { confidence });
    if (assessed.certainty === 'sure' && assessed.value !== null && assessed.value !== candidate)
      return { value: assessed.value, confidence: assessed.confidence };
    if (assessed.value !== null && assessed.value !== candidate) return null;
  }
  if (polarity !== true) return null;
  // "None of these" read back and confirmed: the question is answered with no option.
  if (candidate === null) return question.type === 'multiple_choice' ? { value: null, confidence: null } : null;
  return { value: candidate, confidence: confirmation.confidence };
}

/**
 * The certainty reading of a structured answer: the built-in parser's, or the model's through
 * `answerParser` when one is configured (checked against the options there; the built-in reading
 * whenever the model fails). Either way a parser decides, never the interviewer's free text.
 */
async function assessAnswer(input: DecideAfterAnswerInput, question: TQuestion, answer: string): Promise<AssessedAnswer> {
  const builtin = assessStructuredAnswer(question, answer, input.language, { confidence: input.confidence });
  if (!input.answerParser) return builtin;
  return input.answerParser.assess({ question, answer, language: input.language, recognitionConfidence: input.confidence ?? null, builtin });
}
