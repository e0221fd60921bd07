import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import type { Sealer } from '../lib/sealer.js';

/**
 * The `idempotency_keys` table (design.md "Limits and platform"): one row per key of an
 * organization, kept 24 hours. A request claims its key with one atomic upsert; the claim is
 * renewed while the request runs; then the outcome is stored for replay, or the key is released.
 * The HTTP side (the header, fingerprints, replaying) is `server/http/idempotency.ts`.
 */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

/** How long an in-flight claim outlives its last renewal before it is presumed dead (its process crashed) and can be taken over. */
export const IDEMPOTENCY_LOCK_SECONDS = 30;

/**
 * While its request runs, a claim is renewed every few seconds, so it never lapses under work
 * that is still going on (a slow request answered 503 by the timeout keeps running): only a
 * claim whose process died lapses and can be taken over.
 */
const RENEW_EVERY_SECONDS = 10;

/**
 * What is stored: any outcome of the handler itself, 2xx and refusals such as 402, 404 or 409,
 * which a retry would otherwise turn into a different answer. What is not: refusals made before
 * the handler ran (400, 401, 403, 413, 422, 429), so the client can fix the request and retry
 * with the same key, and 5xx, whose work rolled back, so the retry runs again.
 */
const RELEASED_STATUSES = new Set([400, 401, 403, 413, 422, 429]);

export interface IdempotencyClaim {
  organizationId: string;
  key: string;
  /**
   * When this request claimed the key (`created_at`, reset by a takeover): renewing, completing
   * and releasing touch the row only while it is still this claim. Not changed by renewals, so
   * finishing never has to wait for one.
   */
  claimedAt: string;
  sealer: Sealer;
  /** Stops renewing the claim. A renewal already on its way is harmless: it matches only an in-flight row. */
  stopRenewal: () => void;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  /** The exact body sent; null for a body-less response (204). */
  body: string | null;
}

export type ClaimOutcome = { claimed: IdempotencyClaim } | { replay: StoredResponse };

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
  input: { organizationId: string; key: string; requestHash: string; lockSeconds: number; sealer: Sealer },
): Promise<ClaimOutcome> {
  // A row can vanish between the upsert and the read (its holder released it): claim again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const claimed = await em.execute<{ claimed_at: string }[]>(
      `insert into idempotency_keys (organization_id, key, request_hash, status, locked_until, created_at, expires_at)
       values (?, ?, ?, 'in_flight', clock_timestamp() + make_interval(secs => ?), clock_timestamp(), clock_timestamp() + make_interval(hours => ?))
       on conflict (organization_id, key) do update set
         request_hash = excluded.request_hash, status = 'in_flight', locked_until = excluded.locked_until,
         response_status = null, response_headers = null, response_body = null,
         created_at = excluded.created_at, expires_at = excluded.expires_at
       where idempotency_keys.expires_at <= clock_timestamp()
          or (idempotency_keys.status = 'in_flight' and idempotency_keys.locked_until <= clock_timestamp()
              and idempotency_keys.request_hash = excluded.request_hash)
       returning created_at::text as claimed_at`,
      [input.organizationId, input.key, input.requestHash, input.lockSeconds, IDEMPOTENCY_KEY_TTL_HOURS],
    );
    if (claimed[0]) return { claimed: startRenewal(em, { ...input, claimedAt: claimed[0].claimed_at }) };

    const [row] = await em.execute<IdempotencyRow[]>(
      `select request_hash, status, response_status, response_headers, response_body
       from idempotency_keys where organization_id = ? and key = ?`,
      [input.organizationId, input.key],
    );
    if (!row) continue;
    if (row.request_hash !== input.requestHash) {
      throw new AppError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used for a different request (method, path or body). Use a new key for a new request.',
      );
    }
    if (row.status === 'in_flight') throw keyInUse('is still being processed. Retry after it finishes to get its response');
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
  throw keyInUse('is being processed. Retry shortly');
}

function keyInUse(state: string): AppError {
  return new AppError('IDEMPOTENCY_KEY_IN_USE', `A request with this Idempotency-Key ${state}.`, {}, { 'Retry-After': '1' });
}

function startRenewal(
  em: EntityManager,
  input: { organizationId: string; key: string; claimedAt: string; lockSeconds: number; sealer: Sealer },
): IdempotencyClaim {
  // Each renewal is one autocommitted statement on a pool connection of its own; the request's
  // transaction never waits for it (it would hold its own connection while waiting for another).
  const timer = setInterval(() => {
    void em
      .execute(
        `update idempotency_keys set locked_until = clock_timestamp() + make_interval(secs => ?)
         where organization_id = ? and key = ? and status = 'in_flight' and created_at = ?::timestamptz`,
        [input.lockSeconds, input.organizationId, input.key, input.claimedAt],
      )
      .catch(() => undefined);
  }, RENEW_EVERY_SECONDS * 1000);
  timer.unref();
  return {
    organizationId: input.organizationId,
    key: input.key,
    claimedAt: input.claimedAt,
    sealer: input.sealer,
    stopRenewal: () => clearInterval(timer),
  };
}

/** Whether a handler outcome with this status is stored for replay (else the key is released). */
export function isStoredOutcome(status: number): boolean {
  return status < 500 && !RELEASED_STATUSES.has(status);
}

/** Writes the outcome on the claim's row, while the row is still this claim; false when it is not. */
async function storeOutcome(em: EntityManager, claim: IdempotencyClaim, response: StoredResponse): Promise<boolean> {
  claim.stopRenewal();
  const updated = await em.execute<{ key: string }[]>(
    `update idempotency_keys
     set status = 'completed', locked_until = null, response_status = ?, response_headers = ?::jsonb, response_body = ?
     where organization_id = ? and key = ? and status = 'in_flight' and created_at = ?::timestamptz
     returning key`,
    [
      response.status,
      JSON.stringify(response.headers),
      response.body === null ? null : claim.sealer.seal(response.body),
      claim.organizationId,
      claim.key,
      claim.claimedAt,
    ],
  );
  return updated.length > 0;
}

/**
 * Stores a successful outcome inside the operation's own transaction, so the operation's writes
 * and the answer a retry replays commit together or not at all: no crash point can leave work
 * done without its stored answer. If the claim was lost meanwhile (this process stalled past
 * `locked_until` and another request with the key took over), nothing is stored and the error
 * rolls the operation back, so the work is done by one request only.
 */
export async function completeIdempotencyKey(tx: EntityManager, claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
  if (!(await storeOutcome(tx, claim, response))) {
    throw keyInUse('was taken over by another request while this one ran; this one was undone. Retry to get its response');
  }
}

/** A refusal (the operation rolled back): stored for replay, or the key released when such outcomes are not kept. */
export async function settleIdempotencyKey(em: EntityManager, claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
  if (isStoredOutcome(response.status)) await storeOutcome(em, claim, response);
  else await releaseIdempotencyKey(em, claim);
}

/** Frees the key so the next request with it runs afresh. */
async function releaseIdempotencyKey(em: EntityManager, claim: IdempotencyClaim): Promise<void> {
  claim.stopRenewal();
  await em.execute(
    `delete from idempotency_keys where organization_id = ? and key = ? and status = 'in_flight' and created_at = ?::timestamptz`,
    [claim.organizationId, claim.key, claim.claimedAt],
  );
}

/** Cron: keys past their 24 hours are deleted. */
export async function purgeExpiredIdempotencyKeys(em: EntityManager): Promise<number> {
  const rows = await em.execute<{ count: string }[]>(
    `with deleted as (delete from idempotency_keys where expires_at <= now() returning 1)
     select count(*) as count from deleted`,
  );
  return Number(rows[0]?.count ?? 0);
}
