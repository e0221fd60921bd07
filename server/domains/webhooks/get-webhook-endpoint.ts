import type { EntityManager } from '@mikro-orm/postgresql';
import type { TWebhookEndpoint } from '../../../shared/schemas/webhooks.js';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';
import { toWebhookEndpointDto } from './serialize.js';

/** `GET /api/webhooks/{endpointId}`: the endpoint, never its secret. */
export async function getWebhookEndpoint(em: EntityManager, organizationId: string, endpointId: string): Promise<TWebhookEndpoint> {
  return toWebhookEndpointDto(await loadWebhookEndpoint(em, organizationId, endpointId));
}
