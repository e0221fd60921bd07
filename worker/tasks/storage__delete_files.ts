import type { Task } from 'graphile-worker';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';
import { deleteUnrecordedFiles } from '../../server/storage/delete-unrecorded-files.js';

/** Deletes stored files a committed rewrite replaced (redactions, sentiment overrides) that no record names; retried with backoff while storage fails. */
export function deleteFilesTask(services: AppServices): Task<'storage__delete_files'> {
  return typedTask('storage__delete_files', async ({ keys }) => {
    const { kept } = await deleteUnrecordedFiles(services.orm.em.fork(), services.storage, keys);
    if (kept.length > 0) services.logger.warn({ keys: kept }, 'storage__delete_files: kept files a record still names');
  });
}
