import type { TQuestion, TScriptSettings } from '../../../shared/schemas/scripts.js';
import type { TAnswerValue } from '../../../shared/schemas/sessions.js';
import type { InterviewPending } from '../../entities/session.js';
import { parseStructuredAnswer } from '../../interviewer/answer-parsing.js';
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
}

/** The AI's next utterance, as the engine decided it. */
export type NextTurn =
  | { kind: 'question'; questionIndex: number; text: string; decidedBy: string }
  | { kind: 'follow_up'; text: string; decidedBy: string }
  | { kind: 're_ask'; text: string; decidedBy: string }
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
  /** The conversation so far, this answer included. */
  conversation: ConversationTurn[];
  interviewer: Interviewer;
}

/**
 * The engine's rules for the turn after an answer, whatever the interviewer: questions in
 * script order, none skipped; a required structured answer that cannot be read is asked again
 * once, then recorded as null; follow-ups only within their limit (the interviewer chooses
 * whether, and words them); after the last question, the closing. Audio without text moves on.
 */
export async function decideAfterAnswer(input: DecideAfterAnswerInput): Promise<AnswerOutcome> {
  const { questions, position, answer, language, settings } = input;
  const question = questions[position.questionIndex]!;
  let utteranceValue: TAnswerValue | undefined;
  let finalValue: TAnswerValue | undefined;

  if (question.type !== 'open' && position.pending !== 'follow_up') {
    const parsed = answer === null ? null : parseStructuredAnswer(question, answer, language);
    utteranceValue = parsed?.value ?? null;
    if (!parsed && answer !== null && question.required && !position.reAsked) {
      return {
        utteranceValue,
        finalValue: undefined,
        next: { kind: 're_ask', text: phrasesFor(language).reAsk(question), decidedBy: 'engine' },
        position: { ...position, pending: 're_ask', reAsked: true },
      };
    }
    finalValue = parsed?.value ?? null;
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
