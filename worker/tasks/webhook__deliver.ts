import type { Task } from 'graphile-worker';
import { deliverWebhook } from '../../server/domains/webhooks/index.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** One attempt of one webhook delivery; it schedules the next attempt itself (the spec's fixed schedules). */
export function deliverWebhookTask(services: AppServices): Task<'webhook__deliver'> {
  return typedTask('webhook__deliver', async ({ deliveryId, attempt }) => {
    await deliverWebhook({ em: services.orm.em.fork(), services }, { deliveryId, attempt });
  });
}
