import { z } from 'zod';
import { ChatCompletions, type ChatCompletionsOptions, ChatFailure, type ChatFailureReason, type LlmLogger } from '../ai/chat-completions.js';
import type { Interviewer, InterviewerDecision, InterviewerRequest } from './interviewer.js';
import { MAX_DECISION_TEXT_LENGTH, buildMessages } from './llm-prompt.js';

/**
 * Options of {@link LlmInterviewer}: the endpoint from `LLM_*` (its `timeoutMs` is the budget for
 * one decision, retries included; past it the fallback decides), and the interviewer that decides
 * whenever the model cannot (the built-in one, in practice).
 */
export type LlmInterviewerOptions = ChatCompletionsOptions & { fallback: Interviewer; logger?: LlmLogger };

/** Why a decision went to the fallback; logged as `reason`. */
type LlmFailureReason = Exclude<ChatFailureReason, 'invalid_answer'> | 'invalid_decision';

/** Low but not zero: follow-ups should vary a little between participants, decisions should not. */
const TEMPERATURE = 0.3;

const ZDecisionText = z.string().trim().min(1).max(MAX_DECISION_TEXT_LENGTH);

/** What the model must answer; extra keys (a model's "reason", say) are ignored. */
const ZModelDecision = z.discriminatedUnion('action', [
  z.object({ action: z.literal('follow_up'), text: ZDecisionText }),
  z.object({ action: z.literal('next'), transition: z.string().trim().max(MAX_DECISION_TEXT_LENGTH).nullish() }),
]);

/**
 * An LLM-driven interviewer over any OpenAI-compatible chat completions endpoint. Every failure
 * (network, timeout, HTTP status, malformed or disallowed answer) is logged by reason and handed
 * to the fallback interviewer, so `decide` never rejects. Neither the API key nor anything the
 * participant said is ever logged.
 */
export class LlmInterviewer implements Interviewer {
  readonly name = 'llm';
  readonly usesConversation = true;
  readonly #chat: ChatCompletions;
  readonly #fallback: Interviewer;
  readonly #logger: LlmLogger | undefined;

  constructor(options: LlmInterviewerOptions) {
    this.#chat = new ChatCompletions({
      ...options,
      onFieldRefused: (field, status) => this.#warn({ field, status }, `LLM endpoint refused ${field}; sending requests without it from now on`),
    });
    this.#fallback = options.fallback;
    this.#logger = options.logger;
  }

  async decide(request: InterviewerRequest): Promise<InterviewerDecision> {
    let decision: InterviewerDecision;
    try {
      decision = await this.#ask(request);
    } catch (error) {
      const failure = ChatFailure.from(error);
      const reason: LlmFailureReason = failure.reason === 'invalid_answer' ? 'invalid_decision' : failure.reason;
      this.#warn({ reason, ...failure.detail, questionId: request.current.id }, 'LLM interviewer failed; the fallback interviewer decides');
      return this.#decideWithFallback(request);
    }
    if (decision.action === 'follow_up' && request.followUpsAsked >= request.followUpLimit) {
      // The engine enforces the limit too; answering `next` here keeps the turn coherent
      // instead of a follow-up the engine would have to drop.
      this.#warn(
        { reason: 'follow_up_over_limit', questionId: request.current.id, followUpsAsked: request.followUpsAsked, followUpLimit: request.followUpLimit },
        'LLM interviewer asked a follow-up beyond the limit; moving on',
      );
      return { action: 'next' };
    }
    return decision;
  }

  async #ask(request: InterviewerRequest): Promise<InterviewerDecision> {
    // One budget for the whole decision: a participant is waiting for the next turn.
    const answer = await this.#chat.requestJson(buildMessages(request), ZModelDecision, { temperature: TEMPERATURE });
    if (answer.action === 'follow_up') {
      return { action: 'follow_up', text: answer.text, probe: { reason: 'vague', pickedUp: null, source: 'llm', probeNumber: request.followUpsAsked + 1 } };
    }
    return answer.transition ? { action: 'next', transition: answer.transition } : { action: 'next' };
  }

  async #decideWithFallback(request: InterviewerRequest): Promise<InterviewerDecision> {
    try {
      // The transcript says who actually decided the turn.
      return { ...(await this.#fallback.decide(request)), decidedBy: this.#fallback.name };
    } catch (error) {
      // Moving on is always within the engine's rules, so it is the answer of last resort.
      this.#warn(
        { reason: 'fallback_failed', fallback: this.#fallback.name, errorName: error instanceof Error ? error.name : typeof error, questionId: request.current.id },
        'fallback interviewer failed too; moving on',
      );
      return { action: 'next', decidedBy: 'engine' };
    }
  }

  #warn(fields: Record<string, unknown>, message: string): void {
    try {
      this.#logger?.warn({ provider: this.name, model: this.#chat.model, ...fields }, message);
    } catch {
      // A broken logger must not turn a decision into an error.
    }
  }
}
