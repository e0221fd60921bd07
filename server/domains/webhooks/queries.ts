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

/** What one attempt reads: the delivery, its endpoint and its event, in one query. */
export const attemptContext = defineQuery({
  columns: {
    id: 'text',
    status: 'text',
    attempt_count: 'integer',
    design: 'text',
    redelivery_of: 'text | null',
    endpoint_id: 'text',
    url: 'text',
    endpoint_status: 'text',
    sealed_secret: 'text',
    sealed_previous_secret: 'text | null',
    previous_secret_expires_at: 'timestamp with time zone | null',
    event_id: 'text',
    event_type: 'text',
    facts: 'jsonb',
    occurred_at: 'timestamp with time zone',
  },
  statement: ({ deliveryId }: { deliveryId: string }) =>
    sql`select d.id, d.status, d.attempt_count, d.design, d.redelivery_of, e.id as endpoint_id, e.url, e.status as endpoint_status, e.sealed_secret, e.sealed_previous_secret,
            e.previous_secret_expires_at, ev.id as event_id, ev.type as event_type, ev.facts, ev.occurred_at
       from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id join webhook_events ev on ev.id = d.event_id
      where d.id = ${deliveryId}`,
  example: { deliveryId: 'whd_example' },
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
 * Records an attempt, only if no other run did (the attempt-number guard), with what follows
 * from it: the endpoint disabled on a 410, the next attempt's job added. One statement, so atomic
 * without a transaction's extra round trips. No row: already recorded.
 */
export const recordWebhookAttempt = defineQuery({
  columns: { id: 'text', jobs: 'bigint | null' },
  statement: (attempt: RecordedAttempt) => {
    const disabled = attempt.disableEndpoint
      ? sql`,
     disabled as (
       update webhook_endpoints set status = 'disabled', disabled_reason = 'gone', updated_at = now()
        where id = ${attempt.disableEndpoint} and status = 'enabled' and exists (select 1 from recorded))`
      : sql``;
    // Called once per recorded row: no row (another run recorded this attempt), no job.
    const scheduled = attempt.nextJob
      ? sql`,
     scheduled as (select ${addJobsSql([attempt.nextJob])} from recorded)`
      : sql``;
    const jobs = attempt.nextJob ? sql`(select count(*) from scheduled)` : sql`null::bigint`;
    return sql`with recorded as (
       update webhook_deliveries set attempts = attempts || ${JSON.stringify(attempt.attempts)}::jsonb, attempt_count = ${attempt.number}, status = ${attempt.status}, next_attempt_at = ${attempt.retryAt}, updated_at = now()
        where id = ${attempt.deliveryId} and status = 'pending' and attempt_count = ${attempt.number - 1} returning id)${disabled}${scheduled}
     select recorded.id, ${jobs} as jobs from recorded`;
  },
  example: {
    deliveryId: 'whd_example',
    number: 2,
    attempts: [],
    status: 'pending',
    retryAt: new Date(0),
    disableEndpoint: 'whe_example',
    nextJob: { task: 'webhook__deliver', payload: { deliveryId: 'whd_example', attempt: 3 }, runAt: new Date(0) },
  },
});
