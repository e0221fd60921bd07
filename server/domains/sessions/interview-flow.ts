import type { TQuestion, TScriptSettings } from '../../../shared/schemas/scripts.js';
import type { TAnswerValue } from '../../../shared/schemas/sessions.js';
import type { InterviewPending } from '../../entities/session.js';
import { assessStructuredAnswer, parseStructuredAnswer, withoutLeadingAnswer } from '../../interviewer/answer-parsing.js';
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
  | { kind: 'follow_up'; text: string; decidedBy: string }
  | { kind: 're_ask'; text: string; decidedBy: string }
  /** An unsure answer read back for a yes or no; `value` is what a yes takes. */
  | { kind: 'confirm'; text: string; decidedBy: string; value: TAnswerValue }
  /** A spoken answer heard unsurely, read back before it counts (heard-check.ts); `heard` is the text read back. */
  | { kind: 'check_heard'; text: string; decidedBy: string; heard: string }
  | { kind: 'closing'; text: string; decidedBy: string };

export interface AnswerOutcome {
  /** The value this answer carries (structured questions only; null: unreadable). */
  utteranceValue: TAnswerValue | undefined;
  /** The question's final value, once decided (structured questions only). */
  finalValue: TAnswerValue | undefined;
  next: NextTurn;
  position: FlowPosition;
}

/**
 * design.md "Parsed answers": `question.followUp.maxFollowUps` wins over the script's
 * `settings.maxFollowUps`; `followUp.enabled: false` means none. Without either, open questions
 * allow one follow-up and structured ones none unless the question asks for it.
 */
function followUpLimitOf(question: TQuestion, settings: TScriptSettings): number {
  if (question.followUp?.enabled === false) return 0;
  if (question.followUp?.maxFollowUps !== undefined) return question.followUp.maxFollowUps;
  if (settings.maxFollowUps !== undefined) return settings.maxFollowUps;
  if (question.type === 'open' || question.followUp?.enabled === true) return DEFAULT_MAX_FOLLOW_UPS;
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
  /** The recogniser's confidence in `answer` (0–1), or the browser's; null or absent for typed text. */
  confidence?: number | null | undefined;
  /** The conversation so far, this answer included. */
  conversation: ConversationTurn[];
  interviewer: Interviewer;
}

/**
 * The engine's rules for the turn after an answer, whatever the interviewer: questions in
 * script order, none skipped; a required structured answer that cannot be read is asked again
 * once, then recorded as null; follow-ups only within their limit (the interviewer chooses
 * whether, and words them); after the last question, the closing. Audio without text moves on.
 *
 * A structured answer understood but not surely (`assessStructuredAnswer`: hedged, said as a
 * question, alternatives, self-corrected, or heard with low recogniser confidence) is read back
 * in one short `confirm` turn, whatever the interviewer (the parser decides, never an LLM). Its
 * reply: yes takes the value; a different value said surely ("no, a three") takes that one;
 * anything else asks the question again briefly, once (after which the value is null). The value
 * is recorded once, on the reply that settled it.
 */
export async function decideAfterAnswer(input: DecideAfterAnswerInput): Promise<AnswerOutcome> {
  const { questions, position, answer, language, settings } = input;
  const question = questions[position.questionIndex]!;
  let utteranceValue: TAnswerValue | undefined;
  let finalValue: TAnswerValue | undefined;

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
    }
  } else if (question.type !== 'open' && position.pending !== 'follow_up') {
    const assessed = answer === null ? null : assessStructuredAnswer(question, answer, language, { confidence: input.confidence });
    if (assessed?.certainty === 'unsure' && assessed.value !== null) {
      return {
        utteranceValue: null,
        finalValue: undefined,
        next: { kind: 'confirm', text: phrasesFor(language).confirm(question, assessed.value), decidedBy: 'engine', value: assessed.value },
        position: { ...position, pending: 'confirm', confirming: assessed.value },
      };
    }
    const value = assessed?.certainty === 'sure' ? assessed.value : null;
    utteranceValue = value;
    if (value === null && answer !== null && question.required && !position.reAsked) {
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
      // Filled from the session's turns by the engine (issue 30 plumbing); empty until then.
      askedOnQuestion: [],
      pickedUpBefore: [],
      answer,
      conversation: input.conversation,
    });
    decidedBy = decision.decidedBy ?? input.interviewer.name;
    if (decision.action === 'follow_up') {
      return {
        utteranceValue,
        finalValue,
        next: { kind: 'follow_up', text: decision.text, decidedBy },
        position: { ...position, pending: 'follow_up', followUpsAsked: position.followUpsAsked + 1 },
      };
    }
    transition = decision.transition;
  }

  const nextIndex = position.questionIndex + 1;
  const next = questions[nextIndex];
  if (!next) {
    const closing = phrasesFor(language).closing;
    return { utteranceValue, finalValue, next: { kind: 'closing', text: transition ? `${transition} ${closing}` : closing, decidedBy }, position };
  }
  return {
    utteranceValue,
    finalValue,
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
): { value: TAnswerValue } | null {
  const polarity = parseStructuredAnswer({ type: 'yes_no' }, reply, language)?.value ?? null;
  if (question.type !== 'yes_no') {
    let assessed = assessStructuredAnswer(question, reply, language, { confidence });
    const rest = assessed.value === null ? withoutLeadingAnswer(reply, language) : null;
    if (rest !== null) assessed = assessStructuredAnswer(question, rest, language, { confidence });
    if (assessed.certainty === 'sure' && assessed.value !== null && assessed.value !== candidate) return { value: assessed.value };
    if (assessed.value !== null && assessed.value !== candidate) return null;
  }
  return polarity === true && candidate !== null ? { value: candidate } : null;
}
