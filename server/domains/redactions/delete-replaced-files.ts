import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, sql } from '../../db/sql.js';
import type { JobSpec } from '../../jobs/add-jobs.js';
import type { FileStorage } from '../../storage/file-storage.js';

/**
 * The job that deletes the stored files a rewrite replaced (an unsilenced recording, exports with
 * the old words or labels), added in the rewrite's own transaction: it exists exactly when the
 * records name the new files, so a crash after the commit cannot leave the old ones stored.
 */
export function deleteReplacedFilesJob(keys: readonly string[]): JobSpec<'storage__delete_files'> {
  return { task: 'storage__delete_files', payload: { keys: [...keys] } };
}

/**
 * storage__delete_files: deletes each key that no record names (a key still named, which no
 * rewrite makes, is kept rather than leave a record without its file). Deleting an absent key
 * succeeds, so a retried job only finishes the rest; a failure throws and the job is retried.
 */
export async function deleteReplacedFiles(em: EntityManager, storage: FileStorage, keys: readonly string[]): Promise<{ deleted: string[]; kept: string[] }> {
  const named = await queryRows<{ storage_key: string }>(
    em,
    sql`select storage_key from session_files where storage_key in (select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb))
        union all select storage_key from script_media where storage_key in (select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb))`,
  );
  const kept = new Set(named.map((row) => row.storage_key));
  const deleted: string[] = [];
  for (const key of keys) {
    if (kept.has(key)) continue;
    await storage.delete(key);
    deleted.push(key);
  }
  return { deleted, kept: [...kept] };
}
