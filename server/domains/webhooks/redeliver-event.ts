import type { TRedeliverEventInput } from '../../../shared/schemas/events.js';
import type { TWebhookDelivery } from '../../../shared/schemas/webhooks.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { findRetainedEvent } from './get-event.js';
import { getDelivery } from './get-webhook-delivery.js';
import { insertDeliveries, lockEnabledEndpoint } from './insert-deliveries.js';

/**
 * `POST /v1/events/{eventId}/redeliver`: an event of the last 30 days sent (again) to one of the
 * organization's endpoints, whatever it subscribes to and whether or not it got it before: a new
 * delivery in the endpoint's design of now, with its own schedule (the same event id, so
 * receivers can tell). The endpoint must be enabled (409 WEBHOOK_ENDPOINT_DISABLED). 201.
 */
export async function redeliverEvent({ em }: Pick<Deps, 'em'>, caller: Caller, input: TRedeliverEventInput): Promise<TWebhookDelivery> {
  const [deliveryId] = await em.transactional(async (tx) => {
    const event = await findRetainedEvent(tx, caller, input.eventId, new Date(), { share: true });
    const endpoint = await lockEnabledEndpoint(tx, caller, { endpointId: input.endpointId }, 'endpointId');
    return insertDeliveries(tx, { organizationId: caller.organizationId, eventId: event.id, endpoints: [endpoint] });
  });
  return getDelivery({ em }, caller, { deliveryId: deliveryId! });
}
