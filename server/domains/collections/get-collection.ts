import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCollectionWithItems } from '../../../shared/schemas/collections.js';
import { queryRows, sql } from '../../db/sql.js';
import { missing } from '../highlights/missing.js';
import { COLLECTION_COLUMNS, type CollectionRow, collectionFromRow, readCollectionItems } from './collection-rows.js';

/** `collections.get`: the collection and all its items, in the order they were added (two statements, whatever the size). */
export async function getCollection(em: EntityManager, organizationId: string, collectionId: string): Promise<TCollectionWithItems> {
  const [[row], items] = await Promise.all([
    queryRows<CollectionRow>(em, sql`select ${COLLECTION_COLUMNS} from collections col where col.id = ${collectionId} and col.organization_id = ${organizationId}`),
    readCollectionItems(em, organizationId, collectionId),
  ]);
  if (!row) throw missing('Collection', collectionId, 'collectionId');
  return { ...collectionFromRow(row), items };
}
