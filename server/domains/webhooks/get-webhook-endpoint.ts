import type { TWebhookEndpoint } from '../../../shared/schemas/webhooks.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';
import { toWebhookEndpointDto } from './serialize.js';

/** `GET /api/webhooks/{endpointId}`: the endpoint, never its secret. */
export async function getWebhookEndpoint({ em }: Pick<Deps, 'em'>, caller: Caller, input: { endpointId: string }): Promise<TWebhookEndpoint> {
  return toWebhookEndpointDto(await loadWebhookEndpoint(em, caller, input));
}
