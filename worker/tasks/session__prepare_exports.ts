import type { Task } from 'graphile-worker';
import { prepareSessionExports } from '../../server/domains/reports/prepare-session-files.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** Beside the announcement: the session's transcript JSON and PDF report, one session at a time. */
export function prepareSessionExportsTask(services: AppServices): Task<'session__prepare_exports'> {
  return typedTask('session__prepare_exports', async ({ sessionId }) => {
    await prepareSessionExports({ em: services.orm.em.fork(), services }, { sessionId });
  });
}
