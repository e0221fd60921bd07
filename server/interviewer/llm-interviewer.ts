import { z } from 'zod';
import type { Interviewer, InterviewerDecision, InterviewerRequest } from './interviewer.js';
import { MAX_DECISION_TEXT_LENGTH, buildMessages } from './llm-prompt.js';

/** The part of a logger this provider uses; a pino logger fits. */
export interface LlmInterviewerLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** Options of {@link LlmInterviewer}; the engine fills them from `LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL`. */
export interface LlmInterviewerOptions {
  /** Base of the OpenAI-compatible API, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; empty for local servers that need none. Never logged. */
  apiKey: string;
  model: string;
  /** Budget for one decision, retries included; past it the fallback decides. */
  timeoutMs: number;
  /** Decides whenever the model cannot: the built-in interviewer, in practice. */
  fallback: Interviewer;
  logger?: LlmInterviewerLogger;
}

/** Why a decision went to the fallback; logged as `reason`. */
export type LlmFailureReason =
  | 'timeout'
  | 'network'
  | 'http_status'
  | 'invalid_body'
  | 'empty_choices'
  | 'empty_content'
  | 'refusal'
  | 'truncated'
  | 'invalid_json'
  | 'invalid_decision'
  | 'unexpected';

class LlmFailure extends Error {
  constructor(
    readonly reason: LlmFailureReason,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(reason);
  }
}

/** Low but not zero: follow-ups should vary a little between participants, decisions should not. */
const TEMPERATURE = 0.3;

/**
 * Request fields that some OpenAI-compatible servers (or some models) refuse with a 400:
 * `response_format` on servers without JSON mode, `temperature` on reasoning models that only
 * take the default. Neither is essential (the prompt asks for JSON and the answer is validated
 * either way), so a request refused over one is sent again without it.
 */
const OPTIONAL_FIELDS = ['response_format', 'temperature'] as const;
type OptionalField = (typeof OPTIONAL_FIELDS)[number];

/**
 * A pooled keep-alive connection that the server (or a proxy) closed while idle fails the next
 * request before any answer: one immediate retry on a fresh connection fixes it. A refused
 * connection or an unknown host would only fail again.
 */
const DROPPED_CONNECTION_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

const ZChatCompletion = z.object({
  choices: z.array(
    z.object({
      message: z.object({
        // Some servers answer with content parts rather than a string.
        content: z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() })), z.null()]).optional(),
        refusal: z.string().nullish(),
      }),
      finish_reason: z.string().nullish(),
    }),
  ),
});

const ZProviderError = z.object({
  error: z.object({ message: z.string().optional(), param: z.string().nullish(), code: z.unknown().optional(), type: z.unknown().optional() }),
});

const ZDecisionText = z.string().trim().min(1).max(MAX_DECISION_TEXT_LENGTH);

/** What the model must answer; extra keys (a model's "reason", say) are ignored. */
const ZModelDecision = z.discriminatedUnion('action', [
  z.object({ action: z.literal('follow_up'), text: ZDecisionText }),
  z.object({ action: z.literal('next'), transition: z.string().trim().max(MAX_DECISION_TEXT_LENGTH).nullish() }),
]);

/**
 * Models without JSON mode tend to wrap the object in a Markdown fence or a sentence; the object
 * itself is what counts, and the schema check after this decides whether it is acceptable.
 */
function extractJsonObject(content: string): unknown {
  const trimmed = content.trim();
  const candidates = [trimmed];
  const start = trimmed.indexOf('{');
  const end = trimmed.lastIndexOf('}');
  if (start >= 0 && end > start && (start > 0 || end < trimmed.length - 1)) candidates.push(trimmed.slice(start, end + 1));
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

function contentText(content: string | { type: string; text?: string | undefined }[] | null | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}

/**
 * An LLM-driven interviewer over any OpenAI-compatible chat completions endpoint. Every failure
 * (network, timeout, HTTP status, malformed or disallowed answer) is logged by reason and handed
 * to the fallback interviewer, so `decide` never rejects. Neither the API key nor anything the
 * participant said is ever logged.
 */
export class LlmInterviewer implements Interviewer {
  readonly name = 'llm';
  readonly usesConversation = true;
  readonly #endpoint: string;
  // A private field: the key stays out of JSON.stringify and inspection of the instance.
  readonly #apiKey: string;
  readonly #model: string;
  readonly #timeoutMs: number;
  readonly #fallback: Interviewer;
  readonly #logger: LlmInterviewerLogger | undefined;
  /** Fields this endpoint refused once; remembered so later decisions do not pay a second round trip. */
  readonly #unsupported = new Set<OptionalField>();

  constructor(options: LlmInterviewerOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new Error('LLM base URL is not a valid URL');
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('LLM base URL must be http or https');
    if (!(options.timeoutMs > 0)) throw new Error('LLM timeout must be a positive number of milliseconds');
    this.#endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.#apiKey = options.apiKey;
    this.#model = options.model;
    this.#timeoutMs = options.timeoutMs;
    this.#fallback = options.fallback;
    this.#logger = options.logger;
  }

  async decide(request: InterviewerRequest): Promise<InterviewerDecision> {
    let decision: InterviewerDecision;
    try {
      decision = await this.#ask(request);
    } catch (error) {
      const failure = error instanceof LlmFailure ? error : new LlmFailure('unexpected', { errorName: error instanceof Error ? error.name : typeof error });
      this.#warn({ reason: failure.reason, ...failure.detail, questionId: request.current.id }, 'LLM interviewer failed; the fallback interviewer decides');
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
    const signal = AbortSignal.timeout(this.#timeoutMs);
    const messages = buildMessages(request);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;

    let retriedDroppedConnection = false;
    // Ends: each pass either returns, throws, drops one more optional field, or spends the one retry.
    for (;;) {
      const body = {
        model: this.#model,
        messages,
        ...(this.#unsupported.has('temperature') ? {} : { temperature: TEMPERATURE }),
        ...(this.#unsupported.has('response_format') ? {} : { response_format: { type: 'json_object' } }),
      };
      let status: number;
      let text: string;
      try {
        // No redirects: following one could carry the Authorization header somewhere else.
        const response = await fetch(this.#endpoint, { method: 'POST', headers, body: JSON.stringify(body), signal, redirect: 'error' });
        status = response.status;
        text = await response.text();
      } catch (error) {
        if (signal.aborted) throw new LlmFailure('timeout', { timeoutMs: this.#timeoutMs });
        const code = networkErrorCode(error);
        if (!retriedDroppedConnection && typeof code === 'string' && DROPPED_CONNECTION_CODES.has(code)) {
          retriedDroppedConnection = true;
          continue;
        }
        throw new LlmFailure('network', { code: this.#safeToken(code) });
      }
      if (status < 200 || status > 299) {
        const providerError = parseJson(text, ZProviderError);
        const refused = status === 400 || status === 422 ? this.#refusedField(providerError) : undefined;
        if (refused) {
          this.#unsupported.add(refused);
          this.#warn({ field: refused, status }, `LLM endpoint refused ${refused}; sending requests without it from now on`);
          continue;
        }
        const code = providerError?.error.code ?? providerError?.error.type;
        throw new LlmFailure('http_status', { status, providerCode: this.#safeToken(code) });
      }
      return this.#parseCompletion(text);
    }
  }

  #refusedField(providerError: z.infer<typeof ZProviderError> | undefined): OptionalField | undefined {
    if (!providerError) return undefined;
    const { param, message = '' } = providerError.error;
    return OPTIONAL_FIELDS.find((field) => !this.#unsupported.has(field) && (param === field || message.includes(field)));
  }

  #parseCompletion(text: string): InterviewerDecision {
    const completion = parseJson(text, ZChatCompletion);
    if (!completion) throw new LlmFailure('invalid_body');
    const choice = completion.choices[0];
    if (!choice) throw new LlmFailure('empty_choices');
    if (choice.message.refusal) throw new LlmFailure('refusal');
    const content = contentText(choice.message.content);
    if (!content.trim()) throw new LlmFailure('empty_content', { finishReason: this.#safeToken(choice.finish_reason) });
    const json = extractJsonObject(content);
    if (json === undefined) {
      throw new LlmFailure(choice.finish_reason === 'length' ? 'truncated' : 'invalid_json', { contentLength: content.length });
    }
    const parsed = ZModelDecision.safeParse(json);
    if (!parsed.success) {
      // Paths and codes only: zod messages or received values could quote what the model wrote.
      const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(root)'}:${issue.code}`);
      throw new LlmFailure('invalid_decision', { issues });
    }
    if (parsed.data.action === 'follow_up') return { action: 'follow_up', text: parsed.data.text };
    return parsed.data.transition ? { action: 'next', transition: parsed.data.transition } : { action: 'next' };
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

  /** Provider codes and error codes are logged only when they look like identifiers and hold no key. */
  #safeToken(value: unknown): string | undefined {
    if (typeof value !== 'string' || !/^[A-Za-z0-9_.:-]{1,64}$/.test(value)) return undefined;
    if (this.#apiKey && value.includes(this.#apiKey)) return undefined;
    return value;
  }

  #warn(fields: Record<string, unknown>, message: string): void {
    try {
      this.#logger?.warn({ provider: this.name, model: this.#model, ...fields }, message);
    } catch {
      // A broken logger must not turn a decision into an error.
    }
  }
}

function parseJson<T>(text: string, schema: z.ZodType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** undici reports `fetch failed` with the system error (ECONNREFUSED, ENOTFOUND…) as its cause. */
function networkErrorCode(error: unknown): unknown {
  if (!(error instanceof Error)) return undefined;
  const cause: unknown = error.cause;
  if (cause && typeof cause === 'object' && 'code' in cause) return cause.code;
  return error.name;
}
