import type { EntityManager } from '@mikro-orm/postgresql';
import type { TWebhookDelivery } from '../../../shared/schemas/webhooks.js';
import { WebhookDelivery } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { toDeliveryDto } from './serialize.js';

/** `GET /api/webhooks/deliveries/{deliveryId}`: one delivery of the organization with every attempt, or 404. */
export async function getDelivery(em: EntityManager, organizationId: string, deliveryId: string): Promise<TWebhookDelivery> {
  const delivery = await em.findOne(WebhookDelivery, { id: deliveryId, organization: organizationId }, { populate: ['event'], disableIdentityMap: true });
  if (!delivery) throw notFound('webhookDelivery', deliveryId);
  return toDeliveryDto(delivery);
}
