import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobSpec } from '../jobs/add-jobs.js';
import type { FileStorage } from './file-storage.js';
import { recordedStorageKeys } from './queries.js';

/**
 * Deletes each stored file of `keys` that no record names (script media, session files) and keeps
 * the named ones, rather than leave a record without its file. Deleting an absent key succeeds, so
 * a retry only finishes the rest; a storage failure throws. One statement for the lookup.
 */
export async function deleteUnrecordedFiles(em: EntityManager, storage: FileStorage, keys: readonly string[]): Promise<{ deleted: string[]; kept: string[] }> {
  if (keys.length === 0) return { deleted: [], kept: [] };
  const named = await recordedStorageKeys.rows(em, { candidates: JSON.stringify(keys) });
  const kept = new Set(named.map((row) => row.storage_key));
  const deleted: string[] = [];
  for (const key of keys) {
    if (kept.has(key)) continue;
    await storage.delete(key);
    deleted.push(key);
  }
  return { deleted, kept: [...kept] };
}

/**
 * The job (storage__delete_files) that deletes files once a change that stopped naming them has
 * committed: added in that change's own transaction (a redaction or sentiment override replacing
 * files, expired anonymized exports deleted), it exists exactly when the records no longer name
 * the files, so a crash after the commit cannot leave them stored.
 */
export function deleteFilesJob(keys: readonly string[]): JobSpec<'storage__delete_files'> {
  return { task: 'storage__delete_files', payload: { keys: [...keys] } };
}
