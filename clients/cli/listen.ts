import { createHmac } from 'node:crypto';
import type { TStreamedEvent } from '../../shared/schemas/events.js';
import type { TWebhookDesign } from '../../shared/schemas/webhooks.js';
import { deliveryHeaders } from '../../shared/webhook-signatures.js';

/**
 * `cli listen`: reads the organization's event stream (`GET /v1/event-stream`) with an API key
 * and forwards each event to a local URL, signed as a webhook endpoint's delivery would be, and
 * prints each. Nothing on the service changes: no endpoint, no allow-list, no CA; the key sees
 * its own organization's events only.
 */

export type ListenSignature = 'standard_webhooks' | 'design';

export interface ListenOptions {
  /** The service, such as `http://localhost:3000`. */
  url: string;
  apiKey: string;
  forwardTo: string;
  design: TWebhookDesign;
  signature: ListenSignature;
  /** Event types; absent: all. */
  types?: string[];
  out: (line: string) => void;
  /** Stops listening (Ctrl-C, a test). */
  signal: AbortSignal;
  /** Wait before reconnecting after the stream ended or failed. */
  reconnectMs?: number;
}

/** A path of the service, kept under the path of `--url` when it has one (a service behind a prefix). */
export function serviceUrl(base: string, path: string): URL {
  return new URL(path, base.endsWith('/') ? base : `${base}/`);
}

/** The stream ended on a refusal (a bad key, a missing permission, a bad option): listening again would not help. */
export class ListenRefused extends Error {}

/**
 * The secret the forwarded requests are signed with: made from the API key (HMAC-SHA256), so it
 * is the same at every run with that key, and only its holder can make it. Standard base64 after
 * `whsec_`, as Standard Webhooks' libraries read it.
 */
export function listenSecret(apiKey: string): string {
  return `whsec_${createHmac('sha256', apiKey).update('interview-service cli listen v1').digest('base64')}`;
}

/** The headers a forwarded event is signed with: the very headers an endpoint with that design and scheme gets (shared/webhook-signatures.ts). */
export function signedHeaders(event: TStreamedEvent, signature: ListenSignature, secret: string, now = Date.now()): Record<string, string> {
  return deliveryHeaders(event.body, { design: event.design, scheme: signature, eventId: event.id, eventType: event.type }, [secret], now);
}

interface SseMessage {
  event: string;
  id: string | undefined;
  data: string;
}

/** Server-Sent Events from a response body: each message once its blank line has arrived. */
async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffered = '';
  let message: SseMessage = { event: 'message', id: undefined, data: '' };
  let hasData = false;
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffered.search(/\r?\n/)) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + (buffered[newline] === '\r' ? 2 : 1));
      if (line === '') {
        if (hasData) yield message;
        message = { event: 'message', id: undefined, data: '' };
        hasData = false;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') message.event = value;
      else if (field === 'id') message.id = value;
      else if (field === 'data') {
        message.data = hasData ? `${message.data}\n${value}` : value;
        hasData = true;
      }
    }
  }
}

function timeOfDay(date = new Date()): string {
  return date.toISOString().slice(11, 19);
}

/** POSTs one event to the local URL and prints how it went; true on a 2xx. A failure is printed, not retried (the developer's server is under work). */
export async function forward(
  options: Pick<ListenOptions, 'forwardTo' | 'signature' | 'out' | 'signal'>,
  secret: string,
  event: TStreamedEvent,
): Promise<boolean> {
  const started = performance.now();
  const label = `${timeOfDay()}  ${event.type.padEnd(26)} ${event.id}`;
  try {
    const response = await fetch(options.forwardTo, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'interview-service-cli', ...signedHeaders(event, options.signature, secret) },
      body: event.body,
      redirect: 'manual',
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(30_000)]),
    });
    await response.arrayBuffer().catch(() => undefined);
    options.out(`${label}  -> ${response.status} ${response.statusText} (${Math.round(performance.now() - started)} ms)`);
    return response.ok;
  } catch (error) {
    if (options.signal.aborted) return false;
    options.out(`${label}  -> failed: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`);
    return false;
  }
}

/**
 * Listens until the signal aborts: connects, forwards each event in order, and reconnects after a
 * dropped stream with `Last-Event-ID`, so an event written meanwhile is still forwarded. Throws
 * ListenRefused when the service refuses the stream (the answer's error printed).
 */
export async function listen(options: ListenOptions): Promise<void> {
  const secret = listenSecret(options.apiKey);
  const query = new URLSearchParams({ design: options.design, ...(options.types ? { types: options.types.join(',') } : {}) });
  const streamUrl = serviceUrl(options.url, `v1/event-stream?${query}`);
  let lastEventId: string | undefined;
  let announced = false;
  // An outage is told once, and its end once, not at every attempt.
  let down = false;
  const wentDown = (why: string) => {
    if (!down) options.out(`${timeOfDay()}  ${why}; reconnecting`);
    down = true;
  };
  while (!options.signal.aborted) {
    try {
      const response = await fetch(streamUrl, {
        headers: { authorization: `Bearer ${options.apiKey}`, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
        signal: options.signal,
      });
      if (!response.ok || !response.body) {
        const text = await response.text().catch(() => '');
        const refusal = `The service answered ${response.status}: ${text}`;
        // Refusals of this request stay refusals; an outage (5xx, 429) is waited out.
        if (response.status < 500 && response.status !== 429) throw new ListenRefused(refusal);
        wentDown(refusal.slice(0, 300));
      } else {
        for await (const message of sseMessages(response.body)) {
          if (message.event === 'ready' && down) {
            if (announced) options.out(`${timeOfDay()}  Reconnected: going on where the stream was`);
            down = false;
          }
          if (message.event === 'ready' && !announced) {
            const ready = JSON.parse(message.data) as { organizationId: string; types: string[] | null };
            options.out(
              `Ready: forwarding ${ready.types ? ready.types.join(', ') : 'every'} event of ${ready.organizationId}${options.apiKey.startsWith('isk_test_') ? ' (test mode)' : ''} (Design ${options.design}) to ${options.forwardTo}`,
            );
            options.out(`Signing secret (${options.signature === 'standard_webhooks' ? 'Standard Webhooks' : `Design ${options.design}`}): ${secret}`);
            announced = true;
          } else if (message.event === 'error') {
            // The service ended the stream for good (the key revoked): the reconnect's answer says so and ends the CLI.
            options.out(`${timeOfDay()}  The service ended the stream: ${message.data}`);
          } else if (message.event === 'webhook') {
            await forward(options, secret, JSON.parse(message.data) as TStreamedEvent);
          }
          // Every message's id is the stream's position after it (the ready one's too): a
          // reconnect goes on exactly there, whether or not an event has come yet.
          if (message.id) lastEventId = message.id;
        }
        // The server ended the stream (after 10 minutes, or shutting down): reconnect, quietly.
      }
    } catch (error) {
      if (error instanceof ListenRefused) throw error;
      if (options.signal.aborted) return;
      wentDown(`The stream dropped (${(error as Error).message})`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.reconnectMs ?? 2000));
  }
}
