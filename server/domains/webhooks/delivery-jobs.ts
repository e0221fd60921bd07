import type { JobSpec } from '../../jobs/add-jobs.js';

/**
 * A retry: one job per attempt of a delivery, naming the attempt it makes. A job that finds the
 * delivery already past that attempt (a rerun after a crash that happened after the attempt was
 * recorded) does nothing, so no key is needed to keep attempts single.
 */
export function deliverWebhookJob(deliveryId: string, attempt: number, runAt?: Date): JobSpec<'webhook__deliver'> {
  return { task: 'webhook__deliver', payload: { deliveryId, attempt }, ...(runAt ? { runAt } : {}) };
}

/**
 * The drain of an endpoint's first attempts, added with every new delivery to it. Its key keeps
 * one waiting drain per endpoint however many deliveries are added before it runs (a backlog
 * becomes batches, not one job each); its queue runs one drain of an endpoint at a time, so two
 * never send the same delivery, and a delivery added while one runs is taken by the next.
 */
export function drainEndpointJob(endpointId: string): JobSpec<'webhook__drain'> {
  return { task: 'webhook__drain', payload: { endpointId }, jobKey: `webhook__drain:${endpointId}`, queueName: `webhook:${endpointId}` };
}
