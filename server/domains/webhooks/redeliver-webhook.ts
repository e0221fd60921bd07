import type { EntityManager } from '@mikro-orm/postgresql';
import type { TWebhookDelivery } from '../../../shared/schemas/webhooks.js';
import { AppError } from '../../errors.js';
import { addJobs } from '../../jobs/add-jobs.js';
import { newId } from '../../lib/ids.js';
import { deliverWebhookJob } from './delivery-jobs.js';
import { getDelivery } from './list-webhook-deliveries.js';

/**
 * `POST /api/webhooks/deliveries/{deliveryId}/redeliver`: the same event to the same endpoint
 * again, as a new delivery with its own attempts and schedule (Design B: the same envelope id, so
 * receivers can tell it is the same event). Only a finished delivery (failed, or succeeded) can be
 * redelivered (409 WEBHOOK_DELIVERY_PENDING); the endpoint must be enabled (409
 * WEBHOOK_ENDPOINT_DISABLED). 201 with the new delivery.
 */
export async function redeliverWebhook(em: EntityManager, organizationId: string, deliveryId: string): Promise<TWebhookDelivery> {
  const original = await getDelivery(em, organizationId, deliveryId);
  if (original.status === 'pending') {
    throw new AppError('WEBHOOK_DELIVERY_PENDING', `Delivery ${original.id} is still being attempted.`, { deliveryId: original.id });
  }
  const redeliveryId = newId('whd');
  await em.transactional(async (tx) => {
    // The endpoint is checked (and locked against a concurrent disable) in the same transaction.
    const [endpoint] = await tx.execute<{ status: string }[]>(`select status from webhook_endpoints where id = ? for share`, [original.endpointId]);
    if (endpoint?.status !== 'enabled') {
      throw new AppError('WEBHOOK_ENDPOINT_DISABLED', `Webhook endpoint ${original.endpointId} is disabled; enable it first.`, { endpointId: original.endpointId });
    }
    await tx.execute(
      `insert into webhook_deliveries (id, organization_id, endpoint_id, event_id, status, attempts, attempt_count, next_attempt_at, redelivery_of, created_at, updated_at)
       values (?, ?, ?, ?, 'pending', '[]'::jsonb, 0, now(), ?, now(), now())`,
      [redeliveryId, organizationId, original.endpointId, original.eventId, original.id],
    );
    await addJobs(tx, [deliverWebhookJob(redeliveryId, 1)]);
  });
  return getDelivery(em, organizationId, redeliveryId);
}
