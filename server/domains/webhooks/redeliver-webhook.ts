import type { TWebhookDelivery } from '../../../shared/schemas/webhooks.js';
import { AppError } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { getDelivery } from './get-webhook-delivery.js';
import { insertDeliveries, lockEnabledEndpoint } from './insert-deliveries.js';

/**
 * `POST /api/webhooks/deliveries/{deliveryId}/redeliver`: the same event to the same endpoint
 * again, as a new delivery with its own attempts and schedule (Design B: the same envelope id, so
 * receivers can tell it is the same event), in the endpoint's design of now. Only a finished
 * delivery (failed, or succeeded) can be redelivered (409 WEBHOOK_DELIVERY_PENDING); the endpoint
 * must be enabled (409 WEBHOOK_ENDPOINT_DISABLED). 201 with the new delivery.
 */
export async function redeliverWebhook({ em }: Pick<Deps, 'em'>, caller: Caller, input: { deliveryId: string }): Promise<TWebhookDelivery> {
  const { organizationId } = caller;
  const original = await getDelivery({ em }, caller, input);
  if (original.status === 'pending') {
    throw new AppError('WEBHOOK_DELIVERY_PENDING', `Delivery ${original.id} is still being attempted.`, { deliveryId: original.id });
  }
  const [redeliveryId] = await em.transactional(async (tx) => {
    const endpoint = await lockEnabledEndpoint(tx, caller, { endpointId: original.endpointId });
    return insertDeliveries(tx, { organizationId, eventId: original.eventId, endpoints: [endpoint], redeliveryOf: original.id });
  });
  return getDelivery({ em }, caller, { deliveryId: redeliveryId! });
}
