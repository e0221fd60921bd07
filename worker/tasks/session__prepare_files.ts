import type { Task } from 'graphile-worker';
import { prepareSessionFiles } from '../../server/domains/reports/prepare-session-files.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** After the insights: the session's recordings, then the announcement and the exports. */
export function prepareSessionFilesTask(services: AppServices): Task<'session__prepare_files'> {
  return typedTask('session__prepare_files', async ({ sessionId }) => {
    await prepareSessionFiles({ em: services.orm.em.fork(), services }, { sessionId });
  });
}
