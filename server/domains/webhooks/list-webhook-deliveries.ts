import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TListDeliveriesInput, TWebhookDelivery } from '../../../shared/schemas/webhooks.js';
import { pageOf } from '../pagination.js';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';
import { DELIVERY_COLUMNS, type DeliveryRow, toDeliveryDto } from './serialize.js';

/** `GET /api/webhooks/{endpointId}/deliveries`: newest first, each with every attempt made. */
export async function listWebhookDeliveries(em: EntityManager, organizationId: string, input: TListDeliveriesInput): Promise<Page<TWebhookDelivery>> {
  const endpoint = await loadWebhookEndpoint(em, organizationId, input.endpointId);
  const filter = input.status ? `and d.status = ?` : '';
  const params = input.status ? [endpoint.id, input.status] : [endpoint.id];
  const [rows, [count]] = await Promise.all([
    em.execute<DeliveryRow[]>(
      `select ${DELIVERY_COLUMNS} from webhook_deliveries d join webhook_events ev on ev.id = d.event_id
        where d.endpoint_id = ? ${filter} order by d.created_at desc, d.id desc limit ? offset ?`,
      [...params, input.limit, input.offset],
    ),
    em.execute<{ total: string }[]>(`select count(*) as total from webhook_deliveries d where d.endpoint_id = ? ${filter}`, params),
  ]);
  return pageOf(rows.map(toDeliveryDto), Number(count!.total), input.limit, input.offset);
}
