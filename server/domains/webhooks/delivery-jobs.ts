import type { EntityManager } from '@mikro-orm/postgresql';
import { addJobs, type JobSpec } from '../../jobs/add-jobs.js';

/**
 * A retry: one job per attempt of a delivery, naming the attempt it makes. A job that finds the
 * delivery already past that attempt (a rerun after a crash that happened after the attempt was
 * recorded) does nothing, so no key is needed to keep attempts single.
 */
export function deliverWebhookJob(deliveryId: string, attempt: number, runAt?: Date): JobSpec<'webhook__deliver'> {
  return { task: 'webhook__deliver', payload: { deliveryId, attempt }, ...(runAt ? { runAt } : {}) };
}

/**
 * The drain of an endpoint's first attempts. Its key keeps one waiting drain per endpoint however
 * many deliveries are added before it runs (a backlog becomes batches, not one job each); its
 * queue runs one drain of an endpoint at a time, so two never send the same delivery, and a
 * delivery added while one runs is taken by the next.
 */
export function drainEndpointJob(endpointId: string): JobSpec<'webhook__drain'> {
  return { task: 'webhook__drain', payload: { endpointId }, jobKey: `${DRAIN_KEY_PREFIX}${endpointId}`, queueName: `webhook:${endpointId}` };
}

/** A drain's job key is this and its endpoint's id (the stalled-drain sweep looks drains up by it). */
export const DRAIN_KEY_PREFIX = 'webhook__drain:';

/** Calls of add_jobs before a drain that keeps being locked at the wrong moment is a fault. */
const WAKE_ATTEMPTS = 5;

/**
 * Wakes the endpoints' drains, in the caller's transaction, so every delivery not yet attempted
 * has a drain to send it. graphile-worker's add_jobs clears the key of a running job in one
 * statement and upserts the keyed job in the next (`… where locked_at is null`): a waiting drain
 * locked by a worker between the two is neither replaced nor followed by a new job, and add_jobs
 * answers no row for it (that drain may have read the endpoint's deliveries before this
 * transaction commits). Then the call is made again: the new statement sees the lock, clears the
 * key and adds a drain behind the running one. Endpoints in one order, which makes two
 * transactions waking the same drains less likely to wait on each other crosswise.
 */
export async function wakeDrains(em: EntityManager, endpointIds: string[]): Promise<void> {
  const specs = [...new Set(endpointIds)].sort().map(drainEndpointJob);
  for (let attempt = 1; attempt <= WAKE_ATTEMPTS; attempt++) {
    if ((await addJobs(em, specs)) >= specs.length) return;
  }
  throw new Error(`a webhook drain of ${specs.length} endpoint(s) could not be woken in ${WAKE_ATTEMPTS} attempts`);
}
