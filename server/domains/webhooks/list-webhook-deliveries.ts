import type { Loaded } from '@mikro-orm/core';
import type { Page } from '../../../shared/schemas/common.js';
import type { TListDeliveriesInput, TWebhookDelivery } from '../../../shared/schemas/webhooks.js';
import { WebhookDelivery } from '../../entities/index.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { findPage, pageFrom } from '../common/keyset-page.js';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';
import { toDeliveryDto } from './serialize.js';

/** `GET /api/webhooks/{endpointId}/deliveries`: newest first, each with every attempt made. */
export async function listWebhookDeliveries({ em }: Pick<Deps, 'em'>, caller: Caller, input: TListDeliveriesInput): Promise<Page<TWebhookDelivery>> {
  const endpoint = await loadWebhookEndpoint(em, caller, input);
  const where = { endpoint: endpoint.id, ...(input.status ? { status: input.status } : {}) };
  const page = await findPage(em, WebhookDelivery, where, input, undefined, { populate: ['event'], disableIdentityMap: true });
  return pageFrom(
    page,
    page.items.map((delivery) => toDeliveryDto(delivery as Loaded<WebhookDelivery, 'event'>)),
  );
}
