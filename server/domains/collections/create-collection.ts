import type { CustomerAuth } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCollection, TCreateCollectionInput } from '../../../shared/schemas/collections.js';
import { queryRows, sql } from '../../db/sql.js';
import { newId } from '../../lib/ids.js';

import { authorColumns } from '../common/author.js';
import { nameTaken } from '../common/unique-names.js';
import { COLLECTION_COLUMNS, type CollectionRow, collectionFromRow } from './collection-rows.js';

/** `collections.create`: shared by the whole organization; 409 NAME_TAKEN when the name is in use. */
export async function createCollection(em: EntityManager, auth: CustomerAuth, input: TCreateCollectionInput): Promise<TCollection> {
  const author = authorColumns(auth);
  const [row] = await queryRows<CollectionRow>(
    em,
    sql`with col as (
          insert into collections (id, organization_id, name, description, author_kind, author_id, author_name, created_at, updated_at)
          values (${newId('col')}, ${auth.organizationId}, ${input.name}, ${input.description ?? null}, ${author.kind}, ${author.id}, ${author.name}, now(), now())
          on conflict do nothing
          returning *)
        select ${COLLECTION_COLUMNS} from col`,
  );
  if (row) return collectionFromRow(row);
  throw await nameTaken(em, 'collection', auth.organizationId, input.name);
}
