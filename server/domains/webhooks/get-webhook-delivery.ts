import type { EntityManager } from '@mikro-orm/postgresql';
import type { TWebhookDelivery } from '../../../shared/schemas/webhooks.js';
import { notFound } from '../../errors.js';
import { DELIVERY_COLUMNS, type DeliveryRow, toDeliveryDto } from './serialize.js';

/** `GET /api/webhooks/deliveries/{deliveryId}`: one delivery of the organization with every attempt, or 404. */
export async function getDelivery(em: EntityManager, organizationId: string, deliveryId: string): Promise<TWebhookDelivery> {
  const [row] = await em.execute<DeliveryRow[]>(
    `select ${DELIVERY_COLUMNS} from webhook_deliveries d join webhook_events ev on ev.id = d.event_id where d.id = ? and d.organization_id = ?`,
    [deliveryId, organizationId],
  );
  if (!row) throw notFound('webhookDelivery', deliveryId);
  return toDeliveryDto(row);
}
