import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TDeliveredEventType, TWebhookDesign } from '../../../shared/schemas/webhooks.js';
import type { OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { insertDeliveries } from './insert-deliveries.js';
import { insertWebhookEvent, lockSubscribedEndpoints } from './queries.js';

export interface PublishedEvent {
  eventId: string;
  deliveryIds: string[];
}

/** An event to publish; the organization is the caller's. */
export interface PublishedEventInput {
  type: TDeliveredEventType;
  sessionId: string | null;
  facts: object;
  occurredAt: Date;
}

/** Records an event once (webhook_events), whatever the number of endpoints it goes to. */
export async function recordEvent(tx: EntityManager, event: PublishedEventInput & { organizationId: string }): Promise<string> {
  const eventId = randomUUID();
  await insertWebhookEvent.rows(tx, { id: eventId, ...event });
  return eventId;
}

/**
 * Records an event and one delivery (its endpoint's drain woken) for each enabled endpoint of the
 * caller's organization subscribed to its type or to `*`, in the transaction of `em`: the write that
 * caused the event and its deliveries commit together or not at all.
 */
export async function publishEvent({ em: tx }: Pick<Deps, 'em'>, scope: OrganizationScope, input: PublishedEventInput): Promise<PublishedEvent> {
  const event = { ...input, organizationId: scope.organizationId };
  const eventId = await recordEvent(tx, event);
  // Key-share locks: an endpoint deleted meanwhile waits for this transaction instead of breaking it.
  const endpoints = (await lockSubscribedEndpoints.rows(tx, { organizationId: event.organizationId, type: event.type })).map((endpoint) => ({
    id: endpoint.id,
    design: endpoint.design as TWebhookDesign,
  }));
  const deliveryIds = await insertDeliveries(tx, { organizationId: event.organizationId, eventId, endpoints });
  return { eventId, deliveryIds };
}
