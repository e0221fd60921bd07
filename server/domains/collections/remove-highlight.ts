import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, sql } from '../../db/sql.js';
import { AppError, notFound } from '../../errors.js';

/** `collections.removeHighlight`: takes the highlight out of the collection (the highlight stays); 404 when it is not in it. */
export async function removeHighlightFromCollection(em: EntityManager, organizationId: string, collectionId: string, highlightId: string): Promise<void> {
  const [row] = await queryRows<{ collection_found: boolean; removed: boolean }>(
    em,
    sql`with removed as (
          delete from collection_items where collection_id = ${collectionId} and highlight_id = ${highlightId} and organization_id = ${organizationId}
          returning collection_id),
        touched as (update collections set updated_at = now() where id in (select collection_id from removed))
        select exists (select 1 from collections where id = ${collectionId} and organization_id = ${organizationId}) as collection_found,
               exists (select 1 from removed) as removed`,
  );
  if (!row?.collection_found) throw notFound('collection', collectionId, 'collectionId');
  if (!row.removed) {
    throw new AppError('RESOURCE_NOT_FOUND', `Highlight ${highlightId} is not in collection ${collectionId}.`, {
      resource: 'collectionItem',
      id: highlightId,
      fields: [{ path: 'highlightId', message: 'is not in this collection' }],
    });
  }
}
