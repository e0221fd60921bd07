import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteUnrecordedFiles } from './delete-unrecorded-files.js';
import type { FileStorage } from './file-storage.js';

/** The key prefixes of files that belong to a record: script media and session files. */
const RECORD_PREFIXES = ['script-media/', 'sessions/'];
const BATCH = 500;

/**
 * Deletes stored files that no record names: what a request leaves behind when the transaction
 * that would have recorded its file rolled back after the file was written (a process killed
 * mid-request, a claim taken over). Only files older than `olderThan` are touched, so a file
 * whose record is still being committed is never taken for an orphan. Keys are checked in
 * batches of 500 against both tables.
 */
export async function sweepOrphanFiles(em: EntityManager, storage: FileStorage, olderThan: Date): Promise<{ checked: number; deleted: string[] }> {
  const deleted: string[] = [];
  let checked = 0;
  const settle = async (keys: string[]) => {
    deleted.push(...(await deleteUnrecordedFiles(em, storage, keys)).deleted);
  };
  for (const prefix of RECORD_PREFIXES) {
    let batch: string[] = [];
    for await (const file of storage.list(prefix)) {
      if (file.modifiedAt >= olderThan) continue;
      checked++;
      batch.push(file.key);
      if (batch.length >= BATCH) {
        await settle(batch);
        batch = [];
      }
    }
    await settle(batch);
  }
  return { checked, deleted };
}
