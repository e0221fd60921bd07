import type { Task } from 'graphile-worker';
import { abandonIdleSession } from '../../server/domains/sessions/abandon-idle-session.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** Abandons a session that went quiet for SESSION_ABANDON_AFTER seconds. */
export function abandonIdleSessionTask(services: AppServices): Task<'session__abandon_idle'> {
  return typedTask('session__abandon_idle', async ({ sessionId }) => {
    const outcome = await abandonIdleSession({ em: services.orm.em.fork(), services }, { sessionId });
    if (outcome === 'abandoned') services.logger.info({ sessionId }, 'idle session abandoned');
  });
}
