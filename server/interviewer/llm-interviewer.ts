import { z } from 'zod';
import { ChatCompletions, type ChatCompletionsOptions, ChatFailure, type ChatFailureReason, type LlmLogger } from '../ai/chat-completions.js';
import type { Interviewer, InterviewerDecision, InterviewerRequest } from './interviewer.js';
import { PROBE_REASONS } from '../../shared/schemas/probes.js';
import { DECISION_JSON_SCHEMA, MAX_DECISION_TEXT_LENGTH, buildMessages } from './llm-prompt.js';
import { pickedUpIn, refuseProbe } from './probe-checks.js';

/**
 * Options of {@link LlmInterviewer}: the endpoint from `LLM_*` (its `timeoutMs` is the budget for
 * one decision, retries included; past it the fallback decides), and the interviewer that decides
 * whenever the model cannot (the built-in one, in practice).
 */
export type LlmInterviewerOptions = ChatCompletionsOptions & { fallback: Interviewer; logger?: LlmLogger };

/** Why a decision went to the fallback; logged as `reason`. */
type LlmFailureReason = Exclude<ChatFailureReason, 'invalid_answer'> | 'invalid_decision' | 'probe_refused';

/** Low but not zero: follow-ups should vary a little between participants, decisions should not. */
const TEMPERATURE = 0.3;

/**
 * What the model must answer; extra keys (the unused ones of the JSON schema, null) are ignored.
 * A probe's length is not checked here but by `refuseProbe`, so an over-long one is logged as such.
 */
const ZModelDecision = z.discriminatedUnion('action', [
  z.object({ action: z.literal('follow_up'), text: z.string().trim().min(1), reason: z.enum(PROBE_REASONS), pickedUp: z.string().nullish() }),
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
    if (decision.action === 'follow_up') {
      const refusal = refuseProbe(decision.text, { language: request.language, earlierQuestions: earlierQuestionsOf(request) });
      if (refusal) {
        // The check's name only: the probe may quote the participant.
        this.#warn({ reason: 'probe_refused', check: refusal, questionId: request.current.id }, 'LLM probe refused; the fallback interviewer decides');
        return this.#decideWithFallback(request);
      }
    }
    return decision;
  }

  async #ask(request: InterviewerRequest): Promise<InterviewerDecision> {
    // One budget for the whole decision: a participant is waiting for the next turn.
    const answer = await this.#chat.requestJson(buildMessages(request), ZModelDecision, { temperature: TEMPERATURE, jsonSchema: DECISION_JSON_SCHEMA });
    if (answer.action === 'follow_up') {
      // Words the answer does not hold are the model's, not the participant's: no quote then, but the probe stands.
      const pickedUp = pickedUpIn(request.answer, answer.pickedUp);
      return { action: 'follow_up', text: answer.text, probe: { reason: answer.reason, pickedUp, source: 'llm', probeNumber: request.followUpsAsked + 1 } };
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
        {
          reason: 'fallback_failed',
          fallback: this.#fallback.name,
          errorName: error instanceof Error ? error.name : typeof error,
          questionId: request.current.id,
        },
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

/** What the AI asked before: the current question's turns and every AI turn of the conversation (those of interviewers that read it). */
function earlierQuestionsOf(request: InterviewerRequest): string[] {
  const said = request.conversation.filter((turn) => turn.speaker === 'ai').map((turn) => turn.text);
  return [...new Set([...request.askedOnQuestion, ...said])];
}
