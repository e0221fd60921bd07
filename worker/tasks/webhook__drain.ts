import type { Task } from 'graphile-worker';
import { drainWebhookEndpoint } from '../../server/domains/webhooks/index.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** An endpoint's first attempts, in batches; their retries are `webhook__deliver` jobs. */
export function drainWebhookEndpointTask(services: AppServices): Task<'webhook__drain'> {
  return typedTask('webhook__drain', async ({ endpointId }, helpers) => {
    await drainWebhookEndpoint({ em: services.orm.em.fork(), services }, { endpointId }, helpers.abortSignal);
  });
}
