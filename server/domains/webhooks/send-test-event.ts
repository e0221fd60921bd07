import type { EntityManager } from '@mikro-orm/postgresql';
import type { TWebhookDelivery } from '../../../shared/schemas/webhooks.js';
import { notFound } from '../../errors.js';
import { sampleFacts } from './event-payloads.js';
import { getDelivery } from './get-webhook-delivery.js';
import { endpointDisabled } from './insert-deliveries.js';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';
import { publishEvent } from './publish-event.js';

/**
 * `POST /api/webhooks/{endpointId}/test`: a `test.webhook` event with anonymized sample data (the
 * shape of an `interview.completed`), to this endpoint only, signed with its real secret and
 * delivered like any event (its schedule, its record). 201 with the delivery.
 */
export async function sendTestEvent(em: EntityManager, organizationId: string, endpointId: string): Promise<TWebhookDelivery> {
  const endpoint = await loadWebhookEndpoint(em, organizationId, endpointId);
  if (endpoint.status !== 'enabled') throw endpointDisabled(endpoint.id);
  const published = await em.transactional((tx) =>
    publishEvent(tx, { organizationId, type: 'test.webhook', sessionId: null, facts: sampleFacts(), occurredAt: new Date(), endpointId: endpoint.id }),
  );
  // Deleted or disabled between the check and the event: nothing was sent.
  const deliveryId = published.deliveryIds[0];
  if (!deliveryId) throw notFound('webhookEndpoint', endpoint.id);
  return getDelivery(em, organizationId, deliveryId);
}
