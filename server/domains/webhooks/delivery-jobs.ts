import type { JobSpec } from '../../jobs/add-jobs.js';

/**
 * One job per attempt of a delivery, naming the attempt it makes: a job that finds the delivery
 * already past that attempt (a rerun after a crash that happened after the attempt was recorded)
 * does nothing, so no key is needed to keep attempts single.
 */
export function deliverWebhookJob(deliveryId: string, attempt: number, runAt?: Date): JobSpec<'webhook__deliver'> {
  return { task: 'webhook__deliver', payload: { deliveryId, attempt }, ...(runAt ? { runAt } : {}) };
}
