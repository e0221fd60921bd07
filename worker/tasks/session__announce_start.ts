import type { Task } from 'graphile-worker';
import { announceStart } from '../../server/domains/sessions/announce-start.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** A session's first question was asked: its session.started event and the deliveries to subscribed endpoints. */
export function announceStartTask(services: AppServices): Task<'session__announce_start'> {
  return typedTask('session__announce_start', async ({ sessionId }) => {
    await announceStart({ em: services.orm.em.fork() }, { sessionId });
  });
}
