import type { TWebhookDelivery } from '../../../shared/schemas/webhooks.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { sampleFacts } from './event-payloads.js';
import { getDelivery } from './get-webhook-delivery.js';
import { insertDeliveries, lockEnabledEndpoint } from './insert-deliveries.js';
import { recordEvent } from './publish-event.js';

/**
 * `POST /api/webhooks/{endpointId}/test`: a `test.webhook` event with anonymized sample data (the
 * shape of an `interview.completed`), to this endpoint only, whatever it subscribes to, signed with
 * its real secret and delivered like any event (its schedule, its record). 201 with the delivery.
 */
export async function sendTestEvent({ em }: Pick<Deps, 'em'>, caller: Caller, input: { endpointId: string }): Promise<TWebhookDelivery> {
  const { organizationId } = caller;
  const [deliveryId] = await em.transactional(async (tx) => {
    const endpoint = await lockEnabledEndpoint(tx, caller, input);
    const eventId = await recordEvent(tx, { organizationId, type: 'test.webhook', sessionId: null, facts: sampleFacts(), occurredAt: new Date() });
    return insertDeliveries(tx, { organizationId, eventId, endpoints: [endpoint] });
  });
  return getDelivery({ em }, caller, { deliveryId: deliveryId! });
}
