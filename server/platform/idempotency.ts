import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { AppError } from '../errors.js';
import type { ResponseSealer } from '../lib/response-sealer.js';
import type { Logger } from '../logger.js';

/**
 * `Idempotency-Key` on REST POSTs (design.md "Limits and platform"). A key belongs to the API
 * key's organization for 24 hours. The first request claims it (one atomic upsert), runs, and
 * stores its outcome; the same request again replays that outcome with `Idempotent-Replayed:
 * true`, a different request under the key is 422, and the same key while the first still runs is 409.
 *
 * What is stored: any outcome of the handler itself — 2xx, and refusals such as 402, 404 or
 * 409, which a retry would otherwise turn into a different answer. What is not: refusals
 * before the handler ran (400, 401, 403, 413, 422, 429), so the client can fix the request and
 * retry with the same key, and 5xx, whose transaction rolled back, so the retry runs again.
 *
 * A claim is renewed while its request runs; one whose process died stays in flight only until
 * `locked_until` lapses; then the same request may take it over. Stored bodies are sealed
 * (encrypted) with a key derived from the signing secret. The outcome is stored right after the
 * handler's transaction commits, not inside it: a crash between the two leaves a stale claim
 * that the retry takes over and runs again (the one window where a retry can repeat work).
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

/** How long an in-flight claim outlives its last renewal before it is presumed dead (its process crashed) and can be taken over. */
export const IDEMPOTENCY_LOCK_SECONDS = 30;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Statuses of refusals made before the handler ran (or undone with it): the key is released, not stored. */
const RELEASED_STATUSES = new Set([400, 401, 403, 413, 422, 429]);

/** RFC 9110 visible characters (VCHAR, `!` to `~`): no spaces, no control or non-ASCII characters. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

export interface IdempotencyClaim {
  organizationId: string;
  key: string;
  /** `locked_until` as last written by this request: completing or releasing touches the row only while it still holds it. */
  token: string;
  sealer: ResponseSealer;
  /** Stops renewing the claim; resolves once no renewal is running. */
  stopRenewal: () => Promise<void>;
}

/**
 * While its request runs, a claim is renewed every few seconds, so it never lapses under work
 * that is still going on (a slow request answered 503 by the timeout keeps running): only a
 * claim whose process died lapses and can be taken over.
 */
const RENEW_EVERY_SECONDS = 10;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  /** The exact body sent; null for a body-less response (204). */
  body: string | null;
}

export type ClaimOutcome = { claimed: IdempotencyClaim } | { replay: StoredResponse };

/** The request's key, or undefined without one; 400 INVALID_REQUEST when it is empty, too long or not visible ASCII. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (key === undefined) return undefined;
  const value = Array.isArray(key) ? key.join(', ') : key;
  let problem: string | undefined;
  if (value.length === 0) problem = 'must not be empty';
  else if (value.length > IDEMPOTENCY_KEY_MAX_LENGTH) problem = `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`;
  else if (!VISIBLE_ASCII.test(value)) problem = 'must be visible ASCII characters without spaces';
  if (problem) {
    throw new AppError('INVALID_REQUEST', `The ${IDEMPOTENCY_KEY_HEADER} header ${problem}.`, {
      fields: [{ path: IDEMPOTENCY_KEY_HEADER, message: problem }],
    });
  }
  return value;
}

/** JSON with object keys sorted at every level: the same data always gives the same text. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => stableStringify(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${stableStringify(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What makes two requests "the same": method, path and canonical body. For JSON the parsed body
 * (key order and whitespace do not matter); for a multipart upload its fields plus the file's SHA-256.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method.toUpperCase()}\n${path}\n${stableStringify(body)}`).digest('hex');
}

interface IdempotencyRow {
  request_hash: string;
  status: 'in_flight' | 'completed';
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

/**
 * Claims the key for this request with one atomic upsert, so of simultaneous requests exactly
 * one runs. A row is taken over only when its 24 hours are over, or when it is a stale claim of
 * the same request (its process died before finishing). Otherwise the stored row decides: a
 * completed identical request is replayed, a different request is 422, one still running is 409.
 */
export async function claimIdempotencyKey(
  em: EntityManager,
  input: { organizationId: string; key: string; requestHash: string; lockSeconds: number; sealer: ResponseSealer },
): Promise<ClaimOutcome> {
  // A row can vanish between the upsert and the read (its holder released it): claim again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const claimed = await em.execute<{ token: string }[]>(
      `insert into idempotency_keys (organization_id, key, request_hash, status, locked_until, created_at, expires_at)
       values (?, ?, ?, 'in_flight', clock_timestamp() + make_interval(secs => ?), clock_timestamp(), clock_timestamp() + make_interval(hours => ?))
       on conflict (organization_id, key) do update set
         request_hash = excluded.request_hash, status = 'in_flight', locked_until = excluded.locked_until,
         response_status = null, response_headers = null, response_body = null,
         created_at = excluded.created_at, expires_at = excluded.expires_at
       where idempotency_keys.expires_at <= clock_timestamp()
          or (idempotency_keys.status = 'in_flight' and idempotency_keys.locked_until <= clock_timestamp()
              and idempotency_keys.request_hash = excluded.request_hash)
       returning locked_until::text as token`,
      [input.organizationId, input.key, input.requestHash, input.lockSeconds, IDEMPOTENCY_KEY_TTL_HOURS],
    );
    if (claimed[0]) return { claimed: startRenewal(em, { ...input, token: claimed[0].token }) };

    const [row] = await em.execute<IdempotencyRow[]>(
      `select request_hash, status, response_status, response_headers, response_body
       from idempotency_keys where organization_id = ? and key = ?`,
      [input.organizationId, input.key],
    );
    if (!row) continue;
    if (row.request_hash !== input.requestHash) {
      throw new AppError(
        'IDEMPOTENCY_KEY_REUSED',
        `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request (method, path or body). Use a new key for a new request.`,
      );
    }
    if (row.status === 'in_flight') {
      throw new AppError(
        'IDEMPOTENCY_KEY_IN_USE',
        `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed. Retry after it finishes to get its response.`,
        {},
        { 'Retry-After': '1' },
      );
    }
    let body: string | null;
    try {
      body = row.response_body === null ? null : input.sealer.open(row.response_body);
    } catch {
      // Sealed under another key (SIGNING_SECRET changed): the stored answer is lost. Answering 500
      // on every retry for a day would be worse than running the request again, so the row goes.
      await em.execute(`delete from idempotency_keys where organization_id = ? and key = ? and status = 'completed'`, [
        input.organizationId,
        input.key,
      ]);
      continue;
    }
    return { replay: { status: row.response_status!, headers: row.response_headers ?? {}, body } };
  }
  throw new AppError('IDEMPOTENCY_KEY_IN_USE', `A request with this ${IDEMPOTENCY_KEY_HEADER} is being processed. Retry shortly.`, {}, { 'Retry-After': '1' });
}

function startRenewal(
  em: EntityManager,
  input: { organizationId: string; key: string; token: string; lockSeconds: number; sealer: ResponseSealer },
): IdempotencyClaim {
  let running: Promise<unknown> = Promise.resolve();
  const claim: IdempotencyClaim = {
    organizationId: input.organizationId,
    key: input.key,
    token: input.token,
    sealer: input.sealer,
    stopRenewal: async () => {
      clearInterval(timer);
      await running;
    },
  };
  const timer = setInterval(() => {
    // One renewal at a time, in order, so the token settle reads is the last one written.
    running = running.then(() => em
      .execute<{ token: string }[]>(
        `update idempotency_keys set locked_until = clock_timestamp() + make_interval(secs => ?)
         where organization_id = ? and key = ? and status = 'in_flight' and locked_until = ?::timestamptz
         returning locked_until::text as token`,
        [input.lockSeconds, claim.organizationId, claim.key, claim.token],
      )
      .then((rows) => {
        if (rows[0]) claim.token = rows[0].token;
      })
      .catch(() => undefined));
  }, RENEW_EVERY_SECONDS * 1000);
  timer.unref();
  return claim;
}

/** Whether a handler outcome with this status is stored for replay (else the key is released). */
export function isStoredOutcome(status: number): boolean {
  return status < 500 && !RELEASED_STATUSES.has(status);
}

/** Stores the outcome for replay, or releases the key when the outcome is not to be stored. */
export async function settleIdempotencyKey(em: EntityManager, claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
  await claim.stopRenewal();
  if (!isStoredOutcome(response.status)) {
    await releaseIdempotencyKey(em, claim);
    return;
  }
  await em.execute(
    `update idempotency_keys
     set status = 'completed', locked_until = null, response_status = ?, response_headers = ?::jsonb, response_body = ?
     where organization_id = ? and key = ? and status = 'in_flight' and locked_until = ?::timestamptz`,
    [
      response.status,
      JSON.stringify(response.headers),
      response.body === null ? null : claim.sealer.seal(response.body),
      claim.organizationId,
      claim.key,
      claim.token,
    ],
  );
}

/** Frees the key so the next request with it runs afresh. */
export async function releaseIdempotencyKey(em: EntityManager, claim: IdempotencyClaim): Promise<void> {
  await claim.stopRenewal();
  await em.execute(
    `delete from idempotency_keys where organization_id = ? and key = ? and status = 'in_flight' and locked_until = ?::timestamptz`,
    [claim.organizationId, claim.key, claim.token],
  );
}

/**
 * Settles the claim without failing the response: the handler's work is done (or undone) either
 * way, and an unsettled claim frees itself when its lock lapses.
 */
export async function settleQuietly(em: EntityManager, claim: IdempotencyClaim, response: StoredResponse, logger: Logger): Promise<void> {
  try {
    await settleIdempotencyKey(em, claim, response);
  } catch (error) {
    logger.error({ err: error, status: response.status }, 'could not settle idempotency key');
  }
}

/**
 * The stored form of a JSON response: its status, exact body text, `Content-Type`, and a
 * `Location` set by the handler (on `res`) or carried by an error (`extraHeaders`). Nothing
 * else: rate-limit headers describe each request, not the first one.
 */
export function jsonResponseToStore(res: Response, status: number, body: string | null, extraHeaders: Record<string, string> = {}): StoredResponse {
  const headers: Record<string, string> = {};
  if (body !== null) headers['Content-Type'] = JSON_CONTENT_TYPE;
  const location = extraHeaders.Location ?? res.getHeader('Location');
  if (location !== undefined) headers.Location = String(location);
  return { status, headers, body };
}

/**
 * The two routes that take a key (the REST adapter, the media upload) both: claim it for this
 * request, or send the stored answer (`'replayed'`: the request is done).
 */
export async function claimOrReplay(
  em: EntityManager,
  res: Response,
  input: { organizationId: string; key: string; requestHash: string; sealer: ResponseSealer },
): Promise<IdempotencyClaim | 'replayed'> {
  const outcome = await claimIdempotencyKey(em, { ...input, lockSeconds: IDEMPOTENCY_LOCK_SECONDS });
  if ('claimed' in outcome) return outcome.claimed;
  replayResponse(res, outcome.replay);
  return 'replayed';
}

/**
 * Stores (or, for outcomes not kept, releases) the answer about to be sent: a success body, or
 * an error envelope with its headers. Never fails the response (see settleQuietly).
 */
export async function settleWithAnswer(
  em: EntityManager,
  claim: IdempotencyClaim,
  res: Response,
  answer: { status: number; body: unknown; headers?: Record<string, string> },
  logger: Logger,
): Promise<void> {
  const body = answer.status === 204 ? null : JSON.stringify(answer.body);
  await settleQuietly(em, claim, jsonResponseToStore(res, answer.status, body, answer.headers), logger);
}

/** Sends a stored response again, marked `Idempotent-Replayed: true`. */
export function replayResponse(res: Response, stored: StoredResponse): void {
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.status(stored.status);
  if (stored.body === null) res.end();
  else res.send(stored.body);
}

/** Cron: keys past their 24 hours are deleted. */
export async function purgeExpiredIdempotencyKeys(em: EntityManager): Promise<number> {
  const rows = await em.execute<{ count: string }[]>(
    `with deleted as (delete from idempotency_keys where expires_at <= now() returning 1)
     select count(*) as count from deleted`,
  );
  return Number(rows[0]?.count ?? 0);
}
