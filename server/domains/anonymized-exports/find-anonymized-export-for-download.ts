import type { Deps } from '../common/deps.js';
import { unexpiredAnonymizedExport } from './queries.js';

const CONTENT_TYPES = { json: 'application/json', csv: 'text/csv; charset=utf-8' } as const;

/**
 * For the signed-link download route: an anonymized export that has not expired. No caller: the
 * signed link is its own credential.
 */
export async function findAnonymizedExportForDownload(
  { em }: Pick<Deps, 'em'>,
  { exportId }: { exportId: string },
): Promise<{ storageKey: string; contentType: string; size: number; filename: string } | null> {
  const row = await unexpiredAnonymizedExport.first(em, { exportId });
  if (!row) return null;
  return {
    storageKey: row.storage_key,
    contentType: CONTENT_TYPES[row.format as 'json' | 'csv'],
    size: Number(row.size_bytes),
    filename: `anonymized-export-${row.id}.${row.format}`,
  };
}
