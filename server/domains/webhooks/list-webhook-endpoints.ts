import type { Page } from '../../../shared/schemas/common.js';
import type { TWebhookEndpoint } from '../../../shared/schemas/webhooks.js';
import { WebhookEndpoint } from '../../entities/index.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { findPage, type PageRequest, pageFrom } from '../common/keyset-page.js';
import { toWebhookEndpointDto } from './serialize.js';

/** `GET /api/webhooks`: the organization's endpoints, newest first. */
export async function listWebhookEndpoints({ em }: Pick<Deps, 'em'>, caller: Caller, input: PageRequest): Promise<Page<TWebhookEndpoint>> {
  const page = await findPage(em, WebhookEndpoint, { organization: caller.organizationId }, input, undefined, { disableIdentityMap: true });
  return pageFrom(page, page.items.map(toWebhookEndpointDto));
}
