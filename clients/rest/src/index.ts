import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths, webhooks } from './generated/schema.js';

export type { components, operations, paths, webhooks } from './generated/schema.js';
export { API_VERSION } from './generated/version.js';

export interface InterviewClientOptions {
  /** An API key: `isk_live_…`. Sent as `Authorization: Bearer <key>` on every request. */
  apiKey: string;
  /** Where the service runs, such as `https://interviews.example.com` (the paths start with `/v1` and `/api`). */
  baseUrl: string;
  /** Headers for every request, besides the key. */
  headers?: Record<string, string>;
  /** A fetch to use instead of the global one (tests, proxies, retries). */
  fetch?: ClientOptions['fetch'];
}

/** A typed client of the REST API: `client.GET('/v1/projects', { params: { query: { limit: 10 } } })`. */
export type InterviewClient = Client<paths>;

/**
 * A client of every `/v1` and `/api` operation, typed from the service's OpenAPI document: paths,
 * parameters, bodies and answers, errors included (`{ data, error, response }`, never a throw for
 * an HTTP status).
 */
export function createInterviewClient(options: InterviewClientOptions): InterviewClient {
  return createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** The schemas the document names: `Schemas['Session']`, `Schemas['Transcript']`. */
export type Schemas = components['schemas'];

/** The error envelope every non-2xx JSON answer has: `{ error: { code, message, details, requestId } }`. */
export type ApiError = components['schemas']['Error'];

/** The event types webhooks carry (receivers must also ignore types they do not know). */
export type WebhookEventType = keyof webhooks;

/**
 * The body a webhook endpoint receives for an event type, in either design (A, flat, has `event`;
 * B, an envelope, has `type` and `data`). Verify the signature on the raw body before parsing it.
 */
export type WebhookPayload<T extends WebhookEventType = WebhookEventType> = webhooks[T]['post']['requestBody']['content']['application/json'];

/** A Design B envelope (`{ id, type, created_at, data }`) of an event type. */
export type WebhookEnvelope<T extends WebhookEventType = WebhookEventType> = Extract<WebhookPayload<T>, { type: string }>;

/** A Design A body (flat, with `event`) of an event type. */
export type WebhookFlatPayload<T extends WebhookEventType = WebhookEventType> = Extract<WebhookPayload<T>, { event: string }>;
