import type { Task } from 'graphile-worker';
import { announceCompletion } from '../../server/domains/sessions/completion-pipeline.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** Last step after a session finishes (after its files): its interview.completed event and the deliveries to subscribed endpoints. */
export function announceCompletionTask(services: AppServices): Task<'session__announce_completion'> {
  return typedTask('session__announce_completion', async ({ sessionId }) => {
    await announceCompletion({ em: services.orm.em.fork() }, { sessionId });
  });
}
