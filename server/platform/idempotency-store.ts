import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import type { Sealer } from '../lib/sealer.js';
import {
  claimIdempotencyKeyRow,
  deleteCompletedIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  idempotencyKeyRow,
  releaseIdempotencyClaim,
  renewIdempotencyClaim,
  storeIdempotencyOutcome,
} from './queries.js';

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
    const claimed = await claimIdempotencyKeyRow.first(em, {
      organizationId: input.organizationId,
      key: input.key,
      requestHash: input.requestHash,
      lockSeconds: input.lockSeconds,
      ttlHours: IDEMPOTENCY_KEY_TTL_HOURS,
    });
    if (claimed) return { claimed: startRenewal(em, { ...input, claimedAt: claimed.claimed_at }) };

    const row = await idempotencyKeyRow.first(em, { organizationId: input.organizationId, key: input.key });
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
      await deleteCompletedIdempotencyKey.rows(em, { organizationId: input.organizationId, key: input.key });
      continue;
    }
    return { replay: { status: row.response_status!, headers: (row.response_headers as Record<string, string> | null) ?? {}, body } };
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
    void renewIdempotencyClaim
      .rows(em, { organizationId: input.organizationId, key: input.key, claimedAt: input.claimedAt, lockSeconds: input.lockSeconds })
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
  const updated = await storeIdempotencyOutcome.rows(em, {
    organizationId: claim.organizationId,
    key: claim.key,
    claimedAt: claim.claimedAt,
    status: response.status,
    headers: JSON.stringify(response.headers),
    body: response.body === null ? null : claim.sealer.seal(response.body),
  });
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
  await releaseIdempotencyClaim.rows(em, { organizationId: claim.organizationId, key: claim.key, claimedAt: claim.claimedAt });
}

/** Cron: keys past their 24 hours are deleted. */
export async function purgeExpiredIdempotencyKeys(em: EntityManager): Promise<number> {
  const deleted = await deleteExpiredIdempotencyKeys.first(em, {});
  return Number(deleted?.count ?? 0);
}
