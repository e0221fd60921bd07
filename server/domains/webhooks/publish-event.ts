import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TDeliveredEventType } from '../../../shared/schemas/webhooks.js';
import { addJobs } from '../../jobs/add-jobs.js';
import { newId } from '../../lib/ids.js';
import { deliverWebhookJob } from './delivery-jobs.js';

export interface PublishedEvent {
  eventId: string;
  deliveryIds: string[];
}

/**
 * Records an event and one delivery (with its first job) for each enabled endpoint of the
 * organization subscribed to its type or to `*`, in the caller's transaction: the write that
 * caused the event and its deliveries commit together or not at all. `endpointId` narrows it to
 * one endpoint whatever it subscribes to (the test event).
 */
export async function publishEvent(
  tx: EntityManager,
  event: { organizationId: string; type: TDeliveredEventType; sessionId: string | null; facts: object; occurredAt: Date; endpointId?: string },
): Promise<PublishedEvent> {
  const eventId = randomUUID();
  await tx.execute(`insert into webhook_events (id, organization_id, type, session_id, facts, occurred_at) values (?, ?, ?, ?, ?::jsonb, ?)`, [
    eventId,
    event.organizationId,
    event.type,
    event.sessionId,
    JSON.stringify(event.facts),
    event.occurredAt,
  ]);
  const endpoints = event.endpointId
    ? await tx.execute<{ id: string }[]>(`select id from webhook_endpoints where id = ? and organization_id = ?`, [event.endpointId, event.organizationId])
    : await tx.execute<{ id: string }[]>(
        `select id from webhook_endpoints
          where organization_id = ? and status = 'enabled' and (events @> ?::jsonb or events @> '["*"]'::jsonb)`,
        [event.organizationId, JSON.stringify([event.type])],
      );
  const deliveryIds = endpoints.map(() => newId('whd'));
  if (deliveryIds.length > 0) {
    await tx.execute(
      `insert into webhook_deliveries (id, organization_id, endpoint_id, event_id, status, attempts, attempt_count, next_attempt_at, created_at, updated_at)
       select d.id, ?, d.endpoint_id, ?, 'pending', '[]'::jsonb, 0, now(), now(), now()
         from jsonb_to_recordset(?::jsonb) as d(id text, endpoint_id text)`,
      [event.organizationId, eventId, JSON.stringify(endpoints.map((endpoint, index) => ({ id: deliveryIds[index], endpoint_id: endpoint.id })))],
    );
    await addJobs(tx, deliveryIds.map((id) => deliverWebhookJob(id, 1)));
  }
  return { eventId, deliveryIds };
}
