import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures of both designs and of Standard Webhooks, for the service that signs and for
 * receivers that verify (this file imports nothing of the server: copy it into a receiver as it is).
 *
 * Design A: `X-Webhook-Signature` is the hex HMAC-SHA256 of the exact raw body, keyed with the
 * endpoint's secret. Design B: `X-Interview-Signature` is the hex HMAC-SHA256 of
 * `<X-Interview-Timestamp>.<raw body>` (the timestamp in Unix milliseconds), same key.
 */

/** Header names of Design B (the spec's `X-Service-…`, `Service` being this service's name). */
export const DESIGN_B_SIGNATURE_HEADER = 'x-interview-signature';
export const DESIGN_B_TIMESTAMP_HEADER = 'x-interview-timestamp';
export const DESIGN_A_SIGNATURE_HEADER = 'x-webhook-signature';

/** What receivers of Design B should accept: 5 minutes, the spec's advice. */
export const DEFAULT_TOLERANCE_MS = 5 * 60 * 1000;

type RawBody = string | Buffer | Uint8Array;

function hmacHex(secret: string, ...parts: RawBody[]): string {
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  for (const part of parts) hmac.update(typeof part === 'string' ? Buffer.from(part, 'utf8') : part);
  return hmac.digest('hex');
}

/** Compares two hex digests in constant time (a length mismatch is simply false). */
function sameDigest(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received.trim().toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Design A: the signature of a body. */
export function signWebhookA(rawBody: RawBody, secret: string): string {
  return hmacHex(secret, rawBody);
}

/** Design B: the signature of a body sent at `timestampMs`. */
export function signWebhookB(rawBody: RawBody, timestampMs: number, secret: string): string {
  return hmacHex(secret, `${timestampMs}.`, rawBody);
}

/**
 * Design A receiver check: `rawBody` exactly as received (before any JSON parsing), the
 * `X-Webhook-Signature` header, the endpoint's secret. There is no timestamp in Design A: to
 * refuse old events, read the payload's `timestamp` (retries come up to about 30 minutes later).
 */
export function verifyWebhookA(rawBody: RawBody, signatureHeader: string | undefined | null, secret: string): boolean {
  if (!signatureHeader) return false;
  return sameDigest(signWebhookA(rawBody, secret), signatureHeader);
}

/**
 * Design B receiver check: `rawBody` exactly as received, the request's headers (any casing;
 * Node's `req.headers` or a plain object), the endpoint's secret, and how old a timestamp may be
 * (replays of an old request are refused). During a secret rotation the service sends each event
 * twice, once per secret: whichever copy your secret verifies is the one to take.
 */
export function verifyWebhookB(
  rawBody: RawBody,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
  toleranceMs: number = DEFAULT_TOLERANCE_MS,
  now: number = Date.now(),
): boolean {
  const header = (name: string) => {
    const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    return Array.isArray(found) ? found[0] : found;
  };
  const timestamp = header(DESIGN_B_TIMESTAMP_HEADER);
  const signature = header(DESIGN_B_SIGNATURE_HEADER);
  if (!timestamp || !signature || !/^\d{1,16}$/.test(timestamp)) return false;
  const sentAt = Number(timestamp);
  if (Math.abs(now - sentAt) > toleranceMs) return false;
  return sameDigest(signWebhookB(rawBody, sentAt, secret), signature);
}

/**
 * Standard Webhooks (https://www.standardwebhooks.com), opt-in per endpoint: the headers its
 * receiver libraries read. Receivers verify with one of those libraries (`standardwebhooks`,
 * `svix`: `new Webhook(secret).verify(rawBody, headers)`), which also refuse timestamps older
 * than five minutes and take any of several signatures in the header (a rotation's overlap).
 */
export const STANDARD_WEBHOOK_ID_HEADER = 'webhook-id';
export const STANDARD_WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

/** A secret Standard Webhooks can key with: `whsec_` and the key's bytes in standard base64. */
export const STANDARD_WEBHOOK_SECRET = /^whsec_(?=[A-Za-z0-9+/=]{24,}$)(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * One `v1,<signature>` of the `webhook-signature` header: the base64 HMAC-SHA256 of
 * `<id>.<timestamp>.<raw body>`, keyed with the bytes the secret's base64 (after `whsec_`) encodes.
 */
export function signStandardWebhook(rawBody: RawBody, id: string, timestampSeconds: number, secret: string): string {
  if (!STANDARD_WEBHOOK_SECRET.test(secret)) throw new Error('A Standard Webhooks secret is whsec_ followed by standard base64.');
  const hmac = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'));
  hmac.update(`${id}.${timestampSeconds}.`, 'utf8');
  hmac.update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody);
  return `v1,${hmac.digest('base64')}`;
}

/** What a delivery request is signed as: its endpoint's design and signature scheme, and the event. */
export interface DeliverySigning {
  design: 'A' | 'B';
  scheme: 'design' | 'standard_webhooks';
  eventId: string;
  eventType: string;
}

/**
 * The headers one delivery request carries, as the service sends them and the developer CLI
 * forwards them. Standard Webhooks: one signature per secret, all in one header. The designs' own
 * signing: one secret per request (during a rotation the service sends one request per secret).
 */
export function deliveryHeaders(body: RawBody, signing: DeliverySigning, secrets: readonly string[], nowMs = Date.now()): Record<string, string> {
  const routing: Record<string, string> = signing.design === 'A' ? { 'x-webhook-event': signing.eventType } : {};
  if (signing.scheme === 'standard_webhooks') {
    const timestamp = Math.floor(nowMs / 1000);
    return {
      ...routing,
      [STANDARD_WEBHOOK_ID_HEADER]: signing.eventId,
      [STANDARD_WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
      [STANDARD_WEBHOOK_SIGNATURE_HEADER]: secrets.map((secret) => signStandardWebhook(body, signing.eventId, timestamp, secret)).join(' '),
    };
  }
  if (secrets.length !== 1) throw new Error("A design's own signature takes one secret per request.");
  if (signing.design === 'A') return { ...routing, [DESIGN_A_SIGNATURE_HEADER]: signWebhookA(body, secrets[0]!) };
  return { [DESIGN_B_TIMESTAMP_HEADER]: String(nowMs), [DESIGN_B_SIGNATURE_HEADER]: signWebhookB(body, nowMs, secrets[0]!) };
}
