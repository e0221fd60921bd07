import { defineQuery } from '../db/query.js';
import { sql } from '../db/sql.js';

/**
 * The platform's statements: idempotency keys (idempotency-store.ts), rate-limit counters
 * (rate-limit.ts), the job-queue gauge (metrics.ts) and the generated signing secret (services.ts).
 */

interface ClaimKey {
  organizationId: string;
  key: string;
  /** `created_at` of the claim, as `claimIdempotencyKey` read it back (text). */
  claimedAt: string;
}

/**
 * Claims a key with one atomic upsert: a new row, or a row taken over when its 24 hours are over
 * or when it is a stale claim of the same request. No row: someone else holds the key.
 */
export const claimIdempotencyKeyRow = defineQuery({
  columns: { claimed_at: 'text' },
  statement: (input: { organizationId: string; key: string; requestHash: string; lockSeconds: number; ttlHours: number }) =>
    sql`insert into idempotency_keys (organization_id, key, request_hash, status, locked_until, created_at, expires_at)
       values (${input.organizationId}, ${input.key}, ${input.requestHash}, 'in_flight', clock_timestamp() + make_interval(secs => ${input.lockSeconds}),
               clock_timestamp(), clock_timestamp() + make_interval(hours => ${input.ttlHours}))
       on conflict (organization_id, key) do update set
         request_hash = excluded.request_hash, status = 'in_flight', locked_until = excluded.locked_until,
         response_status = null, response_headers = null, response_body = null,
         created_at = excluded.created_at, expires_at = excluded.expires_at
       where idempotency_keys.expires_at <= clock_timestamp()
          or (idempotency_keys.status = 'in_flight' and idempotency_keys.locked_until <= clock_timestamp()
              and idempotency_keys.request_hash = excluded.request_hash)
       returning created_at::text as claimed_at`,
  example: { organizationId: 'org_example', key: 'key-example', requestHash: 'hash', lockSeconds: 30, ttlHours: 24 },
});

/** The stored row of a key someone else holds: what decides between replay, 409 and 422. */
export const idempotencyKeyRow = defineQuery({
  columns: {
    request_hash: 'text',
    status: 'text',
    response_status: 'integer | null',
    response_headers: 'jsonb | null',
    response_body: 'text | null',
  },
  statement: ({ organizationId, key }: { organizationId: string; key: string }) =>
    sql`select request_hash, status, response_status, response_headers, response_body
       from idempotency_keys where organization_id = ${organizationId} and key = ${key}`,
  example: { organizationId: 'org_example', key: 'key-example' },
});

/** A completed key whose stored answer can no longer be opened (sealed under another key). */
export const deleteCompletedIdempotencyKey = defineQuery({
  columns: {},
  statement: ({ organizationId, key }: { organizationId: string; key: string }) =>
    sql`delete from idempotency_keys where organization_id = ${organizationId} and key = ${key} and status = 'completed'`,
  example: { organizationId: 'org_example', key: 'key-example' },
});

/** Pushes an in-flight claim's `locked_until` forward, while the row is still this claim. */
export const renewIdempotencyClaim = defineQuery({
  columns: {},
  statement: (claim: ClaimKey & { lockSeconds: number }) =>
    sql`update idempotency_keys set locked_until = clock_timestamp() + make_interval(secs => ${claim.lockSeconds})
         where organization_id = ${claim.organizationId} and key = ${claim.key} and status = 'in_flight' and created_at = ${claim.claimedAt}::timestamptz`,
  example: { organizationId: 'org_example', key: 'key-example', claimedAt: '2026-01-01 00:00:00+00', lockSeconds: 30 },
});

/** Writes the outcome on the claim's row, while the row is still this claim; no row when it is not. */
export const storeIdempotencyOutcome = defineQuery({
  columns: { key: 'text' },
  statement: (input: ClaimKey & { status: number; headers: string; body: string | null }) =>
    sql`update idempotency_keys
     set status = 'completed', locked_until = null, response_status = ${input.status}, response_headers = ${input.headers}::jsonb, response_body = ${input.body}
     where organization_id = ${input.organizationId} and key = ${input.key} and status = 'in_flight' and created_at = ${input.claimedAt}::timestamptz
     returning key`,
  example: { organizationId: 'org_example', key: 'key-example', claimedAt: '2026-01-01 00:00:00+00', status: 200, headers: '{}', body: null as string | null },
});

/** Frees a key this claim still holds. */
export const releaseIdempotencyClaim = defineQuery({
  columns: {},
  statement: (claim: ClaimKey) =>
    sql`delete from idempotency_keys where organization_id = ${claim.organizationId} and key = ${claim.key} and status = 'in_flight' and created_at = ${claim.claimedAt}::timestamptz`,
  example: { organizationId: 'org_example', key: 'key-example', claimedAt: '2026-01-01 00:00:00+00' },
});

/** Keys past their 24 hours, deleted; answers how many. */
export const deleteExpiredIdempotencyKeys = defineQuery({
  columns: { count: 'bigint' },
  statement: () =>
    sql`with deleted as (delete from idempotency_keys where expires_at <= now() returning 1)
     select count(*) as count from deleted`,
  example: {},
});

/**
 * Counts each budget's units in the current one-minute window (aligned by the database clock)
 * with one atomic upsert; `budgets` is `[{ bucket, units }]` as JSON.
 */
export const countRateLimitUnits = defineQuery({
  columns: { bucket: 'text', count: 'integer', window_start: 'bigint' },
  statement: ({ budgets }: { budgets: string }) =>
    sql`insert into rate_limit_counters (bucket, window_start, count)
     select budget.bucket, date_trunc('minute', clock_timestamp()), budget.units
     from jsonb_to_recordset(${budgets}::jsonb) as budget(bucket text, units int)
     on conflict (bucket, window_start) do update set count = rate_limit_counters.count + excluded.count
     returning bucket, count, extract(epoch from window_start)::bigint as window_start`,
  example: { budgets: JSON.stringify([{ bucket: 'example', units: 1 }]) },
});

/** Windows that ended over a minute ago, deleted; answers how many. */
export const deleteExpiredRateLimitWindows = defineQuery({
  columns: { count: 'bigint' },
  statement: () =>
    sql`with deleted as (delete from rate_limit_counters where window_start < now() - interval '2 minutes' returning 1)
     select count(*) as count from deleted`,
  example: {},
});

/** graphile-worker's queue by task and state (waiting, scheduled, running, failed), read at scrape time. */
export const jobCountsByTaskAndState = defineQuery({
  columns: { task: 'text', state: 'text', count: 'bigint' },
  statement: () =>
    sql`select t.identifier as task,
                  case when j.locked_at is not null then 'running'
                       when j.attempts >= j.max_attempts then 'failed'
                       when j.run_at > now() then 'scheduled'
                       else 'waiting' end as state,
                  count(*) as count
           from graphile_worker._private_jobs j
           join graphile_worker._private_tasks t on t.id = j.task_id
           group by 1, 2`,
  example: {},
});

/** Stores the candidate URL-signing secret unless a process stored one first. */
export const insertSigningSecret = defineQuery({
  columns: {},
  statement: ({ candidate }: { candidate: string }) =>
    sql`insert into app_secrets (name, value, created_at) values ('url_signing', ${candidate}, now()) on conflict (name) do nothing`,
  example: { candidate: 'secret' },
});

/** The stored URL-signing secret. */
export const signingSecret = defineQuery({
  columns: { value: 'text' },
  statement: () => sql`select value from app_secrets where name = 'url_signing'`,
  example: {},
});
