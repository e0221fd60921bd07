import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, sql } from '../../db/sql.js';

const CONTENT_TYPES = { json: 'application/json', csv: 'text/csv; charset=utf-8' } as const;

/** For the signed-link download route: an anonymized export that has not expired (its link is the credential). */
export async function findAnonymizedExportForDownload(em: EntityManager, exportId: string): Promise<{ storageKey: string; contentType: string; size: number; filename: string } | null> {
  const [row] = await queryRows<{ id: string; format: 'json' | 'csv'; storage_key: string; size_bytes: string }>(
    em,
    sql`select id, format, storage_key, size_bytes from anonymized_exports where id = ${exportId} and expires_at > now()`,
  );
  if (!row) return null;
  return { storageKey: row.storage_key, contentType: CONTENT_TYPES[row.format], size: Number(row.size_bytes), filename: `anonymized-export-${row.id}.${row.format}` };
}
