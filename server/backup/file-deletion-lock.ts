import type { EntityManager } from '@mikro-orm/postgresql';
import { lockSharedUntilCommit } from '../db/advisory-locks.js';

/**
 * Advisory lock between deleting a stored file's record and a backup's copy of the files. A
 * deletion holds it shared while its record goes; a backup holds it exclusively from just before
 * `pg_backup_stop` until it has linked the files. So a record the backup keeps (deleted after
 * the stop) still has its file when the backup links it. Arbitrary constant.
 */
export const FILE_DELETION_LOCK_ID = 7_202_611_25;

/** Removes a record whose file is deleted after it commits, in step with backups (see above). */
export async function deleteFileRecord(em: EntityManager, remove: (tx: EntityManager) => Promise<void>): Promise<void> {
  await em.transactional(async (tx) => {
    await lockSharedUntilCommit(tx, FILE_DELETION_LOCK_ID);
    await remove(tx);
  });
}
