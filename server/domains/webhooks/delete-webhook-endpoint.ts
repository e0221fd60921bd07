import type { EntityManager } from '@mikro-orm/postgresql';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';

/** `DELETE /api/webhooks/{endpointId}`: the endpoint and its deliveries; waiting attempts find nothing to send. */
export async function deleteWebhookEndpoint(em: EntityManager, organizationId: string, endpointId: string): Promise<void> {
  const endpoint = await loadWebhookEndpoint(em, organizationId, endpointId);
  await em.removeAndFlush(endpoint);
}
