import { z } from 'zod';

/** A chat completions message; only the roles this service sends. */
export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** Where an OpenAI-compatible chat endpoint is and how long one request may take (from `LLM_*`). */
export interface ChatCompletionsOptions {
  /** Base of the OpenAI-compatible API, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; empty for local servers that need none. Never logged. */
  apiKey: string;
  model: string;
  /** Budget for one request, retries included. */
  timeoutMs: number;
}

/** The part of a logger the chat model's users (the LLM interviewer and analyzer) use; a pino logger fits. */
export interface LlmLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** Why a request produced no usable answer; callers log it as `reason` and fall back. */
export type ChatFailureReason =
  | 'timeout'
  | 'network'
  | 'http_status'
  | 'invalid_body'
  | 'empty_choices'
  | 'empty_content'
  | 'refusal'
  | 'truncated'
  | 'invalid_json'
  | 'invalid_answer'
  | 'unexpected';

export class ChatFailure extends Error {
  constructor(
    readonly reason: ChatFailureReason,
    /** Identifiers and counts only: never the key, the prompt or what the model wrote. */
    readonly detail: Record<string, unknown> = {},
  ) {
    super(reason);
  }

  /** Any error as a ChatFailure: one thrown by the request as it is, anything else as `unexpected`. */
  static from(error: unknown): ChatFailure {
    return error instanceof ChatFailure ? error : new ChatFailure('unexpected', { errorName: error instanceof Error ? error.name : typeof error });
  }
}

/**
 * Request fields that some OpenAI-compatible servers (or some models) refuse with a 400:
 * `response_format` on servers without JSON mode, `temperature` on reasoning models that only
 * take the default. Neither is essential (the prompt asks for JSON and the answer is validated
 * either way), so a request refused over one is sent again without it.
 */
const OPTIONAL_FIELDS = ['response_format', 'temperature'] as const;
type OptionalField = (typeof OPTIONAL_FIELDS)[number];

/**
 * What the endpoint can refuse: an optional field, or JSON-schema constrained output
 * (`response_format: {type: 'json_schema'}`), which servers that have JSON mode but no schemas
 * refuse as `response_format` too: then JSON mode is tried before no format at all.
 */
export type RefusedField = OptionalField | 'json_schema';

/** Told when the endpoint refuses an optional field, so the caller can log it once. */
type FieldRefusedListener = (field: RefusedField, status: number) => void;

/** A JSON schema the answer must follow (OpenAI's structured outputs: every property required, no others). */
export interface ResponseJsonSchema {
  /** `^[a-zA-Z0-9_-]{1,64}$`, as OpenAI requires. */
  name: string;
  schema: Record<string, unknown>;
}

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
 * JSON answers from any OpenAI-compatible chat completions endpoint (`POST {base}/chat/completions`).
 * Every way a request can go wrong (network, timeout, HTTP status, an answer that is not the
 * expected JSON) rejects with a {@link ChatFailure} naming the reason, so callers can fall back.
 */
export class ChatCompletions {
  readonly model: string;
  readonly #endpoint: string;
  // A private field: the key stays out of JSON.stringify and inspection of the instance.
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  /** Fields this endpoint refused once; remembered so later requests do not pay a second round trip. */
  readonly #unsupported = new Set<RefusedField>();
  readonly #onFieldRefused: FieldRefusedListener | undefined;

  constructor(options: ChatCompletionsOptions & { onFieldRefused?: FieldRefusedListener }) {
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
    this.model = options.model;
    this.#timeoutMs = options.timeoutMs;
    this.#onFieldRefused = options.onFieldRefused;
  }

  /**
   * The model's answer as JSON checked against `schema`; rejects with ChatFailure. With
   * `jsonSchema`, the output is constrained to it where the endpoint supports that (else JSON
   * mode, else nothing: the answer is checked against `schema` whichever way it was asked for).
   */
  async requestJson<T>(messages: ChatMessage[], schema: z.ZodType<T>, options: { temperature: number; jsonSchema?: ResponseJsonSchema }): Promise<T> {
    const signal = AbortSignal.timeout(this.#timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;

    let retriedDroppedConnection = false;
    // Ends: each pass either returns, throws, drops one more optional field, or spends the one retry.
    for (;;) {
      const withSchema = options.jsonSchema !== undefined && !this.#unsupported.has('json_schema') && !this.#unsupported.has('response_format');
      const responseFormat = withSchema
        ? { type: 'json_schema', json_schema: { name: options.jsonSchema!.name, strict: true, schema: options.jsonSchema!.schema } }
        : { type: 'json_object' };
      const body = {
        model: this.model,
        messages,
        ...(this.#unsupported.has('temperature') ? {} : { temperature: options.temperature }),
        ...(this.#unsupported.has('response_format') ? {} : { response_format: responseFormat }),
      };
      let status: number;
      let text: string;
      try {
        // No redirects: following one could carry the Authorization header somewhere else.
        const response = await fetch(this.#endpoint, { method: 'POST', headers, body: JSON.stringify(body), signal, redirect: 'error' });
        status = response.status;
        text = await response.text();
      } catch (error) {
        if (signal.aborted) throw new ChatFailure('timeout', { timeoutMs: this.#timeoutMs });
        const code = networkErrorCode(error);
        if (!retriedDroppedConnection && typeof code === 'string' && DROPPED_CONNECTION_CODES.has(code)) {
          retriedDroppedConnection = true;
          continue;
        }
        throw new ChatFailure('network', { code: this.#safeToken(code) });
      }
      if (status < 200 || status > 299) {
        const providerError = parseJson(text, ZProviderError);
        const refused = status === 400 || status === 422 ? this.#refusedField(providerError, withSchema) : undefined;
        if (refused) {
          this.#unsupported.add(refused);
          this.#onFieldRefused?.(refused, status);
          continue;
        }
        const code = providerError?.error.code ?? providerError?.error.type;
        throw new ChatFailure('http_status', { status, providerCode: this.#safeToken(code) });
      }
      return this.#parseCompletion(text, schema);
    }
  }

  #refusedField(providerError: z.infer<typeof ZProviderError> | undefined, sentSchema: boolean): RefusedField | undefined {
    if (!providerError) return undefined;
    const { param, message = '' } = providerError.error;
    const refused = OPTIONAL_FIELDS.find(
      (field) => !this.#unsupported.has(field) && (param === field || param?.startsWith(`${field}.`) || message.includes(field)),
    );
    if (sentSchema && (refused === 'response_format' || (refused === undefined && message.includes('json_schema')))) return 'json_schema';
    return refused;
  }

  #parseCompletion<T>(text: string, schema: z.ZodType<T>): T {
    const completion = parseJson(text, ZChatCompletion);
    if (!completion) throw new ChatFailure('invalid_body');
    const choice = completion.choices[0];
    if (!choice) throw new ChatFailure('empty_choices');
    if (choice.message.refusal) throw new ChatFailure('refusal');
    const content = contentText(choice.message.content);
    if (!content.trim()) throw new ChatFailure('empty_content', { finishReason: this.#safeToken(choice.finish_reason) });
    const json = extractJsonObject(content);
    if (json === undefined) {
      throw new ChatFailure(choice.finish_reason === 'length' ? 'truncated' : 'invalid_json', { contentLength: content.length });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      // Paths and codes only: zod messages or received values could quote what the model wrote.
      const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(root)'}:${issue.code}`);
      throw new ChatFailure('invalid_answer', { issues });
    }
    return parsed.data;
  }

  /** Provider codes and error codes are logged only when they look like identifiers and hold no key. */
  #safeToken(value: unknown): string | undefined {
    if (typeof value !== 'string' || !/^[A-Za-z0-9_.:-]{1,64}$/.test(value)) return undefined;
    if (this.#apiKey && value.includes(this.#apiKey)) return undefined;
    return value;
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
