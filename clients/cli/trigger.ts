import { randomUUID } from 'node:crypto';
import type { TStreamedEvent } from '../../shared/schemas/events.js';
import type { TWebhookDesign, TWebhookEventType } from '../../shared/schemas/webhooks.js';
import { forward, type ListenSignature, serviceUrl } from './listen.js';

/**
 * `cli trigger <type>`. With a test key (`isk_test_…`) it makes the event on the service, in the
 * test world (`POST /v1/test-helpers/events`): a real event with sample data, which `listen`
 * forwards and the test endpoints subscribed to it receive, as Stripe's `trigger` does. With a
 * live key nothing may be written: it sends one sample event to the local URL itself, signed as
 * `listen` signs (the same secret). That sample is the service's own, the example its OpenAPI
 * document publishes for that type and design (`GET /v1/openapi.json`, no key needed), with a
 * fresh id and the time now, so a receiver that deduplicates takes each.
 */

export interface TriggerOptions {
  url: string;
  apiKey: string;
  forwardTo: string;
  type: TWebhookEventType;
  design: TWebhookDesign;
  signature: ListenSignature;
  out: (line: string) => void;
  signal: AbortSignal;
}

/** The service gave no sample (unreachable, or no example of that type). */
export class TriggerFailed extends Error {}

/** The sample body of a type in a design, from the document's `webhooks` examples, made a new event. */
export async function sampleEvent(options: Pick<TriggerOptions, 'url' | 'type' | 'design' | 'signal'>, now = new Date()): Promise<TStreamedEvent> {
  const response = await fetch(serviceUrl(options.url, 'v1/openapi.json'), { signal: options.signal }).catch((error: Error) => {
    throw new TriggerFailed(`The service at ${options.url} is not reachable (${error.cause instanceof Error ? error.cause.message : error.message}).`);
  });
  if (!response.ok) throw new TriggerFailed(`The service answered ${response.status} for its OpenAPI document.`);
  const document = (await response.json()) as {
    webhooks?: Record<string, { post?: { requestBody?: { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> } } }>;
  };
  const example = document.webhooks?.[options.type]?.post?.requestBody?.content?.['application/json']?.examples?.[`design${options.design}`]?.value;
  if (!example || typeof example !== 'object') throw new TriggerFailed(`The service publishes no ${options.type} example in Design ${options.design}.`);
  const id = randomUUID();
  const body: Record<string, unknown> = { ...(example as Record<string, unknown>) };
  if (options.design === 'B') Object.assign(body, { id, created_at: now.toISOString() });
  else body.timestamp = now.toISOString();
  return { id, type: options.type, design: options.design, body: JSON.stringify(body) };
}

/** Sends the sample; true when the local URL answered 2xx. */
export async function trigger(options: TriggerOptions, secret: string): Promise<boolean> {
  const event = await sampleEvent(options);
  return forward(options, secret, event);
}

/** Whether a key acts in test mode: its prefix says so (the service decides by the key's row). */
export function isTestKey(apiKey: string): boolean {
  return apiKey.startsWith('isk_test_');
}

/** Makes the event in the test world; true when the service made it. */
export async function triggerInTestMode(options: Pick<TriggerOptions, 'url' | 'apiKey' | 'type' | 'out' | 'signal'>): Promise<boolean> {
  const response = await fetch(serviceUrl(options.url, 'v1/test-helpers/events'), {
    method: 'POST',
    headers: { Authorization: `Bearer ${options.apiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
    body: JSON.stringify({ type: options.type }),
    signal: options.signal,
  }).catch((error: Error) => {
    throw new TriggerFailed(`The service at ${options.url} is not reachable (${error.cause instanceof Error ? error.cause.message : error.message}).`);
  });
  const body = (await response.json().catch(() => ({}))) as { id?: string; error?: { code?: string; message?: string } };
  if (response.status !== 201 || !body.id) {
    throw new TriggerFailed(`The service refused the event: ${response.status} ${body.error?.code ?? ''} ${body.error?.message ?? ''}`.trim());
  }
  options.out(`Made ${options.type} event ${body.id} in test mode: \`listen\` forwards it, and test endpoints subscribed to ${options.type} receive it.`);
  return true;
}
