import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TDeliveredEventType, TWebhookDesign } from '../../../shared/schemas/webhooks.js';
import { insertDeliveries } from './insert-deliveries.js';

export interface PublishedEvent {
  eventId: string;
  deliveryIds: string[];
}

/**
 * Records an event and one delivery (with its first job) for each enabled endpoint of the
 * organization subscribed to its type or to `*`, in the caller's transaction: the write that
 * caused the event and its deliveries commit together or not at all. `endpointId` narrows it to
 * that one endpoint whatever it subscribes to (the test event).
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
  // Key-share locks: an endpoint deleted meanwhile waits for this transaction instead of breaking it.
  const endpoints = event.endpointId
    ? await tx.execute<{ id: string; design: TWebhookDesign }[]>(`select id, design from webhook_endpoints where id = ? and organization_id = ? and status = 'enabled' for key share`, [
        event.endpointId,
        event.organizationId,
      ])
    : await tx.execute<{ id: string; design: TWebhookDesign }[]>(
        `select id, design from webhook_endpoints
          where organization_id = ? and status = 'enabled' and (events @> ?::jsonb or events @> '["*"]'::jsonb) for key share`,
        [event.organizationId, JSON.stringify([event.type])],
      );
  const deliveryIds = await insertDeliveries(tx, { organizationId: event.organizationId, eventId, endpoints });
  return { eventId, deliveryIds };
}
