import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TDeliveredEventType, TWebhookDesign } from '../../../shared/schemas/webhooks.js';
import { insertDeliveries } from './insert-deliveries.js';

export interface PublishedEvent {
  eventId: string;
  deliveryIds: string[];
}

interface NewEvent {
  organizationId: string;
  type: TDeliveredEventType;
  sessionId: string | null;
  facts: object;
  occurredAt: Date;
}

/** Records an event once (webhook_events), whatever the number of endpoints it goes to. */
export async function recordEvent(tx: EntityManager, event: NewEvent): Promise<string> {
  const eventId = randomUUID();
  await tx.execute(`insert into webhook_events (id, organization_id, type, session_id, facts, occurred_at) values (?, ?, ?, ?, ?::jsonb, ?)`, [
    eventId,
    event.organizationId,
    event.type,
    event.sessionId,
    JSON.stringify(event.facts),
    event.occurredAt,
  ]);
  return eventId;
}

/**
 * Records an event and one delivery (with its first job) for each enabled endpoint of the
 * organization subscribed to its type or to `*`, in the caller's transaction: the write that
 * caused the event and its deliveries commit together or not at all.
 */
export async function publishEvent(tx: EntityManager, event: NewEvent): Promise<PublishedEvent> {
  const eventId = await recordEvent(tx, event);
  // Key-share locks: an endpoint deleted meanwhile waits for this transaction instead of breaking it.
  const endpoints = await tx.execute<{ id: string; design: TWebhookDesign }[]>(
    `select id, design from webhook_endpoints
      where organization_id = ? and status = 'enabled' and (events @> ?::jsonb or events @> '["*"]'::jsonb) for key share`,
    [event.organizationId, JSON.stringify([event.type])],
  );
  const deliveryIds = await insertDeliveries(tx, { organizationId: event.organizationId, eventId, endpoints });
  return { eventId, deliveryIds };
}
