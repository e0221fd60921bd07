import type { TWebhookDelivery, TWebhookEndpoint } from '../../../shared/schemas/webhooks.js';
import type { Loaded } from '@mikro-orm/core';
import type { WebhookDelivery, WebhookEndpoint } from '../../entities/index.js';

export function toWebhookEndpointDto(endpoint: WebhookEndpoint): TWebhookEndpoint {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    design: endpoint.design,
    signatureScheme: endpoint.signatureScheme,
    description: endpoint.description ?? null,
    status: endpoint.status,
    disabledReason: endpoint.disabledReason ?? null,
    secretRotatedAt: endpoint.secretRotatedAt?.toISOString() ?? null,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

/** A delivery with its event loaded (`populate: ['event']`). */
export function toDeliveryDto(delivery: Loaded<WebhookDelivery, 'event'>): TWebhookDelivery {
  return {
    id: delivery.id,
    endpointId: delivery.endpoint.id,
    eventId: delivery.event.id,
    event: delivery.event.type,
    sessionId: delivery.event.session?.id ?? null,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    redeliveryOf: delivery.redeliveryOf ?? null,
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
  };
}
