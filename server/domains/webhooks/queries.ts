import { sql } from '../../db/sql.js';
import { defineQuery } from '../../db/query.js';
import type { JobSpec } from '../../jobs/add-jobs.js';
import { addJobsSql } from '../../jobs/queries.js';

/** An event, recorded once (webhook_events) whatever the number of endpoints it goes to. */
export const insertWebhookEvent = defineQuery({
  columns: {},
  statement: (event: { id: string; organizationId: string; type: string; sessionId: string | null; facts: object; occurredAt: Date }) =>
    sql`insert into webhook_events (id, organization_id, type, session_id, facts, occurred_at) values (${event.id}, ${event.organizationId}, ${event.type}, ${event.sessionId}, ${JSON.stringify(event.facts)}::jsonb, ${event.occurredAt})`,
  example: { id: 'evt_example', organizationId: 'org_example', type: 'test.webhook', sessionId: null as string | null, facts: {}, occurredAt: new Date(0) },
});

/**
 * The organization's enabled endpoints subscribed to the type or to `*`, key-share locked: an
 * endpoint deleted meanwhile waits for the caller's transaction instead of breaking it.
 */
export const lockSubscribedEndpoints = defineQuery({
  columns: { id: 'text', design: 'text' },
  statement: ({ organizationId, type }: { organizationId: string; type: string }) =>
    sql`select id, design from webhook_endpoints
      where organization_id = ${organizationId} and status = 'enabled' and (events @> ${JSON.stringify([type])}::jsonb or events @> '["*"]'::jsonb) for key share`,
  example: { organizationId: 'org_example', type: 'interview.completed' },
});

/** One endpoint of the organization, share-locked (enabled or not: the caller tells). */
export const lockEndpointForDelivery = defineQuery({
  columns: { id: 'text', status: 'text', design: 'text' },
  statement: ({ organizationId, endpointId }: { organizationId: string; endpointId: string }) =>
    sql`select id, status, design from webhook_endpoints where id = ${endpointId} and organization_id = ${organizationId} for share`,
  example: { organizationId: 'org_example', endpointId: 'whe_example' },
});

/** Deliveries of one event, pending, one per endpoint (each keeps its endpoint's design). */
export const insertWebhookDeliveries = defineQuery({
  columns: {},
  statement: (delivery: {
    organizationId: string;
    eventId: string;
    redeliveryOf: string | null;
    deliveries: { id: string; endpoint_id: string; design: string }[];
  }) =>
    sql`insert into webhook_deliveries (id, organization_id, endpoint_id, event_id, status, design, attempts, attempt_count, next_attempt_at, redelivery_of, created_at, updated_at)
     select d.id, ${delivery.organizationId}, d.endpoint_id, ${delivery.eventId}, 'pending', d.design, '[]'::jsonb, 0, now(), ${delivery.redeliveryOf}, now(), now()
       from jsonb_to_recordset(${JSON.stringify(delivery.deliveries)}::jsonb) as d(id text, endpoint_id text, design text)`,
  example: {
    organizationId: 'org_example',
    eventId: 'evt_example',
    redeliveryOf: null as string | null,
    deliveries: [{ id: 'whd_example', endpoint_id: 'whe_example', design: 'A' }],
  },
});

/** What an attempt reads: the delivery, its endpoint and its event. */
const ATTEMPT_CONTEXT_COLUMNS = {
  id: 'text',
  status: 'text',
  attempt_count: 'integer',
  design: 'text',
  redelivery_of: 'text | null',
  endpoint_id: 'text',
  url: 'text',
  endpoint_status: 'text',
  signature_scheme: 'text',
  sealed_secret: 'text',
  sealed_previous_secret: 'text | null',
  previous_secret_expires_at: 'timestamp with time zone | null',
  event_id: 'text',
  event_type: 'text',
  facts: 'jsonb',
  occurred_at: 'timestamp with time zone',
} as const;

const attemptContextFrom = sql`select d.id, d.status, d.attempt_count, d.design, d.redelivery_of, e.id as endpoint_id, e.url, e.status as endpoint_status, e.signature_scheme, e.sealed_secret,
            e.sealed_previous_secret, e.previous_secret_expires_at, ev.id as event_id, ev.type as event_type, ev.facts, ev.occurred_at
       from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id join webhook_events ev on ev.id = d.event_id`;

/** One delivery's attempt context (a retry, or a first attempt queued before drains). */
export const attemptContext = defineQuery({
  columns: ATTEMPT_CONTEXT_COLUMNS,
  statement: ({ deliveryId }: { deliveryId: string }) => sql`${attemptContextFrom}
      where d.id = ${deliveryId}`,
  example: { deliveryId: 'whd_example' },
});

/**
 * An endpoint's deliveries that have had no attempt yet, oldest first, with their contexts: what
 * its drain sends next (`webhook_deliveries_first_attempt_due` holds just these rows).
 */
export const firstAttemptsDue = defineQuery({
  columns: ATTEMPT_CONTEXT_COLUMNS,
  statement: ({ endpointId, limit }: { endpointId: string; limit: number }) => sql`${attemptContextFrom}
      where d.endpoint_id = ${endpointId} and d.status = 'pending' and d.attempt_count = 0
      order by d.created_at, d.id limit ${limit}`,
  example: { endpointId: 'whe_example', limit: 50 },
});

export interface RecordedAttempt {
  deliveryId: string;
  number: number;
  attempts: object[];
  status: string;
  retryAt: Date | null;
  /** The endpoint to disable (it answered 410 Gone), if any. */
  disableEndpoint: string | null;
  /** The next attempt's job, added only when the attempt is recorded. */
  nextJob: JobSpec | null;
}

/**
 * Records attempts, each only if no other run did (the attempt-number guard), with what follows
 * from each: the endpoint disabled on a 410, the next attempt's job added. One statement for any
 * number of attempts, so each is atomic without a transaction's extra round trips. A row per
 * attempt recorded; an attempt without one was recorded already.
 */
export const recordWebhookAttempts = defineQuery({
  columns: { id: 'text' },
  statement: ({ attempts }: { attempts: RecordedAttempt[] }) => {
    const rows = attempts.map((attempt) => ({
      delivery_id: attempt.deliveryId,
      number: attempt.number,
      attempts: attempt.attempts,
      status: attempt.status,
      retry_at: attempt.retryAt?.toISOString() ?? null,
      disable_endpoint: attempt.disableEndpoint,
    }));
    const nextJobs = attempts.flatMap((attempt) => (attempt.nextJob ? [attempt.nextJob] : []));
    // A delivery's next job is added only when its attempt was recorded here (the job names it).
    const scheduled = nextJobs.length
      ? sql`,
     scheduled as (select count(*) from ${addJobsSql(nextJobs, sql`spec.payload->>'deliveryId' in (select id from recorded)`)})`
      : sql``;
    // The rows by their key first (`d.id = any`): the planner cannot know how few rows the JSON
    // holds, and would otherwise read every delivery to join them.
    return sql`with attempt as (
       select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
         as a(delivery_id text, number int, attempts jsonb, status text, retry_at timestamptz, disable_endpoint text)),
     recorded as (
       update webhook_deliveries d set attempts = d.attempts || a.attempts, attempt_count = a.number, status = a.status, next_attempt_at = a.retry_at, updated_at = now()
         from attempt a
        where d.id = any(${attempts.map((attempt) => attempt.deliveryId)}::text[]) and d.id = a.delivery_id and d.status = 'pending' and d.attempt_count = a.number - 1
        returning d.id, a.disable_endpoint),
     disabled as (
       update webhook_endpoints set status = 'disabled', disabled_reason = 'gone', updated_at = now()
        where id in (select disable_endpoint from recorded where disable_endpoint is not null) and status = 'enabled')${scheduled}
     select recorded.id from recorded${
       // Joined so that it runs: PostgreSQL skips a SELECT in WITH that nothing reads.
       nextJobs.length ? sql` left join scheduled on true` : sql``
     }`;
  },
  example: {
    attempts: [
      {
        deliveryId: 'whd_example',
        number: 2,
        attempts: [],
        status: 'pending',
        retryAt: new Date(0),
        disableEndpoint: 'whe_example',
        nextJob: { task: 'webhook__deliver', payload: { deliveryId: 'whd_example', attempt: 3 }, runAt: new Date(0) },
      },
    ],
  },
});

/**
 * Endpoints with a delivery that has waited over `olderThanSeconds` for its first attempt and no
 * drain that can still send it: none waiting, running or retrying under the endpoint's key (a
 * drain that failed for good keeps its key with its attempts used up). wakeStalledDrains wakes
 * these. The partial index holds just the deliveries read; graphile-worker's key is unique.
 */
export const endpointsWithStalledFirstAttempts = defineQuery({
  columns: { endpoint_id: 'text' },
  statement: ({ olderThanSeconds, drainKeyPrefix }: { olderThanSeconds: number; drainKeyPrefix: string }) =>
    sql`select distinct d.endpoint_id from webhook_deliveries d
      where d.status = 'pending' and d.attempt_count = 0 and d.created_at < now() - make_interval(secs => ${olderThanSeconds}::double precision)
        and not exists (select 1 from graphile_worker._private_jobs j where j.key = ${drainKeyPrefix}::text || d.endpoint_id and j.attempts < j.max_attempts)`,
  example: { olderThanSeconds: 60, drainKeyPrefix: 'webhook__drain:' },
});

/**
 * The event stream's poll (stream-events.ts): the organization's events after a position (a
 * transaction id and an event id), in commit-safe order: only those of transactions below the
 * oldest one still running, so none can turn up behind the position later. `since_snapshot`, at
 * a stream's start, leaves out what had committed before it. `test.webhook` is left out: it
 * belongs to the one endpoint it was sent to.
 */
export const eventsAfterPosition = defineQuery({
  columns: { id: 'text', type: 'text', facts: 'jsonb', occurred_at: 'timestamp with time zone', recorded_xid: 'text' },
  statement: (params: {
    organizationId: string;
    afterXid: string;
    afterId: string;
    sinceSnapshot: string | null;
    retainedSince: Date;
    types: string[] | null;
    limit: number;
  }) =>
    sql`select id, type, facts, occurred_at, recorded_xid::text as recorded_xid from webhook_events
         where organization_id = ${params.organizationId} and occurred_at >= ${params.retainedSince}
           and (recorded_xid, id) > (${params.afterXid}::xid8, ${params.afterId})
           and recorded_xid < pg_snapshot_xmin(pg_current_snapshot())
           and (${params.sinceSnapshot}::pg_snapshot is null or not pg_visible_in_snapshot(recorded_xid, ${params.sinceSnapshot}::pg_snapshot))
           and type <> 'test.webhook'
           and (${params.types}::text[] is null or type = any(${params.types}::text[]))
         order by recorded_xid, id limit ${params.limit}`,
  example: {
    organizationId: 'org_example',
    afterXid: '0',
    afterId: '',
    sinceSnapshot: '10:20:' as string | null,
    retainedSince: new Date(0),
    types: ['session.started'] as string[] | null,
    limit: 100,
  },
});

/** Where a new stream starts: the oldest transaction still running, and what had committed (the snapshot). */
export const eventStreamStart = defineQuery({
  columns: { xmin: 'text', snapshot: 'text' },
  statement: () => sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin, pg_current_snapshot()::text as snapshot`,
  example: {},
});

/** The transaction that wrote an event of the organization: where a stream resumed after it starts. */
export const eventRecordedXid = defineQuery({
  columns: { recorded_xid: 'text | null' },
  statement: (params: { organizationId: string; eventId: string }) =>
    sql`select recorded_xid::text as recorded_xid from webhook_events where organization_id = ${params.organizationId} and id = ${params.eventId}`,
  example: { organizationId: 'org_example', eventId: 'evt_example' },
});
