import type { EntityManager } from '@mikro-orm/postgresql';
import type { TWebhookDesign } from '../../../shared/schemas/webhooks.js';
import { AppError, notFound } from '../../errors.js';
import { addJobs } from '../../jobs/add-jobs.js';
import { newId } from '../../lib/ids.js';
import { deliverWebhookJob } from './delivery-jobs.js';

/** 409 WEBHOOK_ENDPOINT_DISABLED: nothing is sent to a disabled endpoint until it is enabled again. */
export function endpointDisabled(endpointId: string): AppError {
  return new AppError('WEBHOOK_ENDPOINT_DISABLED', `Webhook endpoint ${endpointId} is disabled; enable it first.`, { endpointId });
}

/**
 * The organization's endpoint, enabled, share-locked for the caller's transaction so it cannot be
 * disabled or deleted before the delivery made to it commits: 404 if it is not the
 * organization's, 409 WEBHOOK_ENDPOINT_DISABLED if it is disabled.
 */
export async function lockEnabledEndpoint(tx: EntityManager, organizationId: string, endpointId: string): Promise<{ id: string; design: TWebhookDesign }> {
  const [endpoint] = await tx.execute<{ id: string; status: string; design: TWebhookDesign }[]>(
    `select id, status, design from webhook_endpoints where id = ? and organization_id = ? for share`,
    [endpointId, organizationId],
  );
  if (!endpoint) throw notFound('webhookEndpoint', endpointId);
  if (endpoint.status !== 'enabled') throw endpointDisabled(endpointId);
  return { id: endpoint.id, design: endpoint.design };
}

/**
 * Deliveries of one event to endpoints, each with its first attempt's job, in the caller's
 * transaction. Each keeps its endpoint's design from here on, so its payloads and its schedule
 * stay one design to the end. The caller has key-share locked the endpoint rows, so a concurrent
 * delete waits for this transaction rather than break it.
 */
export async function insertDeliveries(
  tx: EntityManager,
  delivery: { organizationId: string; eventId: string; endpoints: { id: string; design: TWebhookDesign }[]; redeliveryOf?: string },
): Promise<string[]> {
  const ids = delivery.endpoints.map(() => newId('whd'));
  if (ids.length === 0) return ids;
  await tx.execute(
    `insert into webhook_deliveries (id, organization_id, endpoint_id, event_id, status, design, attempts, attempt_count, next_attempt_at, redelivery_of, created_at, updated_at)
     select d.id, ?, d.endpoint_id, ?, 'pending', d.design, '[]'::jsonb, 0, now(), ?, now(), now()
       from jsonb_to_recordset(?::jsonb) as d(id text, endpoint_id text, design text)`,
    [
      delivery.organizationId,
      delivery.eventId,
      delivery.redeliveryOf ?? null,
      JSON.stringify(delivery.endpoints.map((endpoint, index) => ({ id: ids[index], endpoint_id: endpoint.id, design: endpoint.design }))),
    ],
  );
  await addJobs(tx, ids.map((id) => deliverWebhookJob(id, 1)));
  return ids;
}
