import type { TWebhookDelivery, TWebhookEndpoint } from '../../../shared/schemas/webhooks.js';
import type { WebhookEndpoint } from '../../entities/index.js';

export function toWebhookEndpointDto(endpoint: WebhookEndpoint): TWebhookEndpoint {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    design: endpoint.design,
    description: endpoint.description ?? null,
    status: endpoint.status,
    disabledReason: endpoint.disabledReason ?? null,
    secretRotatedAt: endpoint.secretRotatedAt?.toISOString() ?? null,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

/** A delivery as raw rows hold it (timestamps as the strings raw queries give). */
export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  session_id: string | null;
  status: TWebhookDelivery['status'];
  attempts: TWebhookDelivery['attempts'];
  next_attempt_at: string | null;
  redelivery_of: string | null;
  created_at: string;
  updated_at: string;
}

/** Reads a delivery with its event's type and session: what DeliveryRow holds. */
export const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.event_id, ev.type as event_type, ev.session_id, d.status, d.attempts, d.next_attempt_at, d.redelivery_of, d.created_at, d.updated_at`;

export function toDeliveryDto(row: DeliveryRow): TWebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    event: row.event_type,
    sessionId: row.session_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' && row.next_attempt_at ? new Date(row.next_attempt_at).toISOString() : null,
    redeliveryOf: row.redelivery_of,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
