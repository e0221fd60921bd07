import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TListDeliveriesInput, TWebhookDelivery } from '../../../shared/schemas/webhooks.js';
import { WebhookDelivery } from '../../entities/index.js';
import { pageOf } from '../pagination.js';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';
import { toDeliveryDto } from './serialize.js';

/** `GET /api/webhooks/{endpointId}/deliveries`: newest first, each with every attempt made. */
export async function listWebhookDeliveries(em: EntityManager, organizationId: string, input: TListDeliveriesInput): Promise<Page<TWebhookDelivery>> {
  const endpoint = await loadWebhookEndpoint(em, organizationId, input.endpointId);
  const [deliveries, total] = await em.findAndCount(
    WebhookDelivery,
    { endpoint: endpoint.id, ...(input.status ? { status: input.status } : {}) },
    { populate: ['event'], orderBy: { createdAt: 'desc', id: 'desc' }, limit: input.limit, offset: input.offset, disableIdentityMap: true },
  );
  return pageOf(deliveries.map(toDeliveryDto), total, input.limit, input.offset);
}
