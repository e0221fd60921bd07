import type { EntityManager } from '@mikro-orm/postgresql';
import type { TWebhookDesign } from '../../../shared/schemas/webhooks.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import type { OrganizationScope } from '../common/caller.js';
import { wakeDrains } from './delivery-jobs.js';
import { insertWebhookDeliveries, lockEndpointForDelivery } from './queries.js';

/** 409 WEBHOOK_ENDPOINT_DISABLED: nothing is sent to a disabled endpoint until it is enabled again. */
export function endpointDisabled(endpointId: string): AppError {
  return new AppError('WEBHOOK_ENDPOINT_DISABLED', `Webhook endpoint ${endpointId} is disabled; enable it first.`, { endpointId });
}

/**
 * The organization's endpoint, enabled, share-locked for the caller's transaction so it cannot be
 * disabled or deleted before the delivery made to it commits: 404 if it is not the
 * organization's, 409 WEBHOOK_ENDPOINT_DISABLED if it is disabled.
 */
export async function lockEnabledEndpoint(
  tx: EntityManager,
  scope: OrganizationScope,
  input: { endpointId: string },
  /** Where the id came from when the request's body named it: the 404 names that field. */
  fieldPath?: string,
): Promise<{ id: string; design: TWebhookDesign }> {
  const { endpointId } = input;
  const endpoint = await lockEndpointForDelivery.first(tx, { organizationId: scope.organizationId, endpointId });
  if (!endpoint) throw notFound('webhookEndpoint', endpointId, fieldPath);
  if (endpoint.status !== 'enabled') throw endpointDisabled(endpointId);
  return { id: endpoint.id, design: endpoint.design as TWebhookDesign };
}

/**
 * Deliveries of one event to endpoints, each endpoint's drain woken for their first attempts, in
 * the caller's transaction. Each keeps its endpoint's design from here on, so its payloads and its schedule
 * stay one design to the end. The caller has key-share locked the endpoint rows, so a concurrent
 * delete waits for this transaction rather than break it.
 */
export async function insertDeliveries(
  tx: EntityManager,
  delivery: { organizationId: string; eventId: string; endpoints: { id: string; design: TWebhookDesign }[]; redeliveryOf?: string },
): Promise<string[]> {
  const ids = delivery.endpoints.map(() => newId('whd'));
  if (ids.length === 0) return ids;
  await insertWebhookDeliveries.rows(tx, {
    organizationId: delivery.organizationId,
    eventId: delivery.eventId,
    redeliveryOf: delivery.redeliveryOf ?? null,
    deliveries: delivery.endpoints.map((endpoint, index) => ({ id: ids[index]!, endpoint_id: endpoint.id, design: endpoint.design })),
  });
  await wakeDrains(
    tx,
    delivery.endpoints.map((endpoint) => endpoint.id),
  );
  return ids;
}
