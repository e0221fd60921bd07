import type { Task } from 'graphile-worker';
import { announceCompletion } from '../../server/domains/sessions/completion-pipeline.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** Last step after a session finishes: interview.completed (deliveries come with the webhooks issue). */
export function announceCompletionTask(services: AppServices): Task<'session__announce_completion'> {
  return typedTask('session__announce_completion', async ({ sessionId }) => {
    await announceCompletion(services.orm.em.fork(), sessionId);
  });
}
