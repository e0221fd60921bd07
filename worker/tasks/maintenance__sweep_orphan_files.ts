import type { Task } from 'graphile-worker';
import type { AppServices } from '../../server/services.js';
import { sweepOrphanFiles } from '../../server/storage/sweep-orphan-files.js';

/** Files must be a day old before a sweep may take them for orphans: no upload or commit takes that long. */
const ORPHAN_AGE_MS = 24 * 3600 * 1000;

/** Cron (daily): stored files that no record names are deleted. */
export function sweepOrphanFilesTask(services: AppServices): Task {
  return async () => {
    const { checked, deleted } = await sweepOrphanFiles(services.orm.em.fork(), services.storage, new Date(Date.now() - ORPHAN_AGE_MS));
    if (deleted.length > 0) services.logger.warn({ checked, deleted: deleted.length, keys: deleted.slice(0, 20) }, 'deleted stored files without a record');
  };
}
