import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCollection, TUpdateCollectionInput } from '../../../shared/schemas/collections.js';
import { queryRows, sql } from '../../db/sql.js';
import { nameTaken, withUniqueName } from '../common/unique-names.js';
import { COLLECTION_COLUMNS, type CollectionRow, collectionFromRow } from './collection-rows.js';
import { notFound } from '../../errors.js';

/** `collections.update`: name and description (`null` clears it); 409 NAME_TAKEN when another collection has the name. */
export async function updateCollection(em: EntityManager, organizationId: string, input: TUpdateCollectionInput): Promise<TCollection> {
  const [row] = await withUniqueName(
    () =>
      queryRows<CollectionRow>(
        em,
        sql`with col as (
              update collections set
                name = coalesce(${input.name ?? null}, name),
                description = case when ${input.description !== undefined} then ${input.description ?? null} else description end,
                updated_at = now()
              where id = ${input.collectionId} and organization_id = ${organizationId}
              returning *)
            select ${COLLECTION_COLUMNS} from col`,
      ),
    () => nameTaken(em, 'collection', organizationId, input.name ?? ''),
  );
  if (!row) throw notFound('collection', input.collectionId, 'collectionId');
  return collectionFromRow(row);
}
