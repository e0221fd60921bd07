import type { TWebhookDelivery } from '../../../shared/schemas/webhooks.js';
import { WebhookDelivery } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { toDeliveryDto } from './serialize.js';

/** `GET /api/webhooks/deliveries/{deliveryId}`: one delivery of the organization with every attempt, or 404. */
export async function getDelivery({ em }: Pick<Deps, 'em'>, caller: Caller, input: { deliveryId: string }): Promise<TWebhookDelivery> {
  const { deliveryId } = input;
  const delivery = await em.findOne(
    WebhookDelivery,
    { id: deliveryId, organization: caller.organizationId },
    { populate: ['event'], disableIdentityMap: true },
  );
  if (!delivery) throw notFound('webhookDelivery', deliveryId);
  return toDeliveryDto(delivery);
}
