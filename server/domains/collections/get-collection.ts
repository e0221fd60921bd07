import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCollection, TCollectionItem } from '../../../shared/schemas/collections.js';
import type { CursorPage } from '../../../shared/schemas/common.js';
import { queryRows, sql } from '../../db/sql.js';
import { COLLECTION_COLUMNS, type CollectionRow, collectionFromRow, readCollectionItemsPage } from './collection-rows.js';
import { notFound } from '../../errors.js';

/** `collections.get`: the collection with its item count (its items are paged by `collections.items`). */
export async function getCollection(em: EntityManager, organizationId: string, collectionId: string): Promise<TCollection> {
  const [row] = await queryRows<CollectionRow>(em, sql`select ${COLLECTION_COLUMNS} from collections col where col.id = ${collectionId} and col.organization_id = ${organizationId}`);
  if (!row) throw notFound('collection', collectionId, 'collectionId');
  return collectionFromRow(row);
}

/**
 * `collections.items`: a page of the collection's items in the order they were added, each with
 * its highlight as it is now. Another organization's collection is 404, an empty one an empty page.
 */
export async function listCollectionItems(
  em: EntityManager,
  organizationId: string,
  input: { collectionId: string; cursor?: string | undefined; limit: number },
): Promise<CursorPage<TCollectionItem>> {
  const [[exists], page] = await Promise.all([
    queryRows<{ id: string }>(em, sql`select id from collections where id = ${input.collectionId} and organization_id = ${organizationId}`),
    readCollectionItemsPage(em, organizationId, input.collectionId, input),
  ]);
  if (!exists) throw notFound('collection', input.collectionId, 'collectionId');
  return page;
}
