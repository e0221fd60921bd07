import type { TUpdateWebhookInput, TWebhookEndpoint } from '../../../shared/schemas/webhooks.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { WebhookAdminServices } from './webhook-services.js';
import { deliverableUrl } from './endpoint-url.js';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';
import { toWebhookEndpointDto } from './serialize.js';

/**
 * `PATCH /api/webhooks/{endpointId}`: url, events, design, description, status. Disabling stops
 * deliveries (those waiting fail at their next attempt); enabling re-enables an endpoint,
 * one disabled by a 410 Gone included.
 */
export async function updateWebhookEndpoint(
  { em, services }: Pick<Deps, 'em'> & { services: Pick<WebhookAdminServices, 'outboundPolicy'> },
  caller: Caller,
  input: TUpdateWebhookInput,
): Promise<TWebhookEndpoint> {
  const endpoint = await loadWebhookEndpoint(em, caller, input);
  if (input.url !== undefined && input.url !== endpoint.url) endpoint.url = await deliverableUrl(input.url, services.outboundPolicy);
  if (input.events !== undefined) endpoint.events = input.events;
  if (input.design !== undefined) endpoint.design = input.design;
  if (input.description !== undefined) endpoint.description = input.description;
  if (input.status !== undefined && input.status !== endpoint.status) {
    endpoint.status = input.status;
    endpoint.disabledReason = input.status === 'disabled' ? 'manual' : null;
  }
  await em.flush();
  return toWebhookEndpointDto(endpoint);
}
