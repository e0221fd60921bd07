import type { Task } from 'graphile-worker';
import { runScheduledBackup } from '../../server/backup/scheduled-backup.js';
import type { AppServices } from '../../server/services.js';

/** Cron (BACKUP_CRON): an online backup of the embedded database into BACKUP_DIR, keeping BACKUP_KEEP. */
export function backupTask(services: AppServices): Task {
  return async () => {
    // The worker's own connection string: the embedded cluster this process holds.
    await runScheduledBackup(services, String(services.orm.config.get('clientUrl')));
  };
}
