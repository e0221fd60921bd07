import type { Task } from 'graphile-worker';
import { deleteReplacedFiles } from '../../server/domains/redactions/delete-replaced-files.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** Deletes stored files a committed rewrite replaced (redactions, sentiment overrides); retried with backoff while storage fails. */
export function deleteFilesTask(services: AppServices): Task<'storage__delete_files'> {
  return typedTask('storage__delete_files', async ({ keys }) => {
    const { kept } = await deleteReplacedFiles(services.orm.em.fork(), services.storage, keys);
    if (kept.length > 0) services.logger.warn({ keys: kept }, 'storage__delete_files: kept files a record still names');
  });
}
