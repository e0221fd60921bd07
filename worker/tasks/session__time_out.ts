import type { Task } from 'graphile-worker';
import { timeOutSession } from '../../server/domains/sessions/time-out-session.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** Completes a session as timed out once its maxDuration of time in progress is used up. */
export function timeOutSessionTask(services: AppServices): Task<'session__time_out'> {
  return typedTask('session__time_out', async ({ sessionId }) => {
    const outcome = await timeOutSession({ em: services.orm.em.fork() }, { sessionId });
    if (outcome === 'timed_out') services.logger.info({ sessionId }, 'session timed out');
  });
}
