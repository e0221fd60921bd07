import type { TFollowUpDepth, TProbeLedger } from '../../shared/schemas/probes.js';
import type { TQuestion } from '../../shared/schemas/scripts.js';

/**
 * The interviewer decides, after each participant answer to an open question (or a structured
 * one that parsed), whether to follow up or move on, and words its own turns. The engine keeps
 * the rules that must hold whatever the provider says: questions in order, required questions
 * never skipped, follow-ups within their limit, one re-ask of an unparseable required
 * structured answer, completion after the last question. A provider only chooses within them.
 */
export interface Interviewer {
  /** `builtin` or `llm`: recorded on each AI turn, so a transcript says who spoke. */
  readonly name: string;
  /** Whether `decide` reads `conversation`: the engine loads it only for interviewers that do. */
  readonly usesConversation: boolean;
  decide(request: InterviewerRequest): Promise<InterviewerDecision>;
}

export interface ConversationTurn {
  speaker: 'ai' | 'participant';
  text: string;
  /** The script question the turn belongs to; null for the greeting or closing. */
  questionId: string | null;
}

export interface InterviewerRequest {
  /** The script version's `systemPrompt`: persona and behaviour of the interviewer. */
  systemPrompt: string;
  /** BCP 47 language of the interview, e.g. `en`. */
  language: string;
  /** Every question of the pinned script version, in the order they are asked. */
  questions: TQuestion[];
  /** The question the participant just answered. */
  current: TQuestion;
  /** Follow-ups already asked on `current`, and how many are allowed (0: none). */
  followUpsAsked: number;
  followUpLimit: number;
  /** The question's `followUp.depth`, or null when the script leaves it to `maxFollowUps` alone. */
  depth: TFollowUpDepth | null;
  /** The AI's turns on `current` so far (the question and its probes), oldest first: a probe never repeats one. */
  askedOnQuestion: string[];
  /** The participant's words earlier probes on `current` picked up: a probe never picks the same words twice. */
  pickedUpBefore: string[];
  /** What the participant just said (`null` when an audio answer could not be transcribed). */
  answer: string | null;
  /** The whole conversation so far, the answer included, oldest first (empty for interviewers that do not use it). */
  conversation: ConversationTurn[];
}

export type InterviewerDecision =
  /** Ask a follow-up on the current question; `text` is the AI's utterance, `probe` why it was asked (recorded on the turn). */
  (
    | { action: 'follow_up'; text: string; probe: TProbeLedger }
    /** Move on: the engine asks the next question (or closes); `transition` is an optional short bridge said first. */
    | { action: 'next'; transition?: string }
  ) & {
    /** Set when another interviewer than the one asked decided (a provider's fallback); recorded on the turn. */
    decidedBy?: string;
  };
