import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';

/** `DELETE /api/webhooks/{endpointId}`: the endpoint and its deliveries; waiting attempts find nothing to send. */
export async function deleteWebhookEndpoint({ em }: Pick<Deps, 'em'>, caller: Caller, input: { endpointId: string }): Promise<void> {
  const endpoint = await loadWebhookEndpoint(em, caller, input);
  await em.removeAndFlush(endpoint);
}
