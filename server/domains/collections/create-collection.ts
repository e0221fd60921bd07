import type { TCollection, TCreateCollectionInput } from '../../../shared/schemas/collections.js';
import { newId } from '../../lib/ids.js';
import { authorColumns } from '../common/author.js';
import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { nameTaken } from '../common/unique-names.js';
import { collectionFromRow, insertCollection } from './queries.js';

/** `collections.create`: shared by the whole organization; 409 NAME_TAKEN when the name is in use. */
export async function createCollection({ em }: Pick<Deps, 'em'>, caller: CustomerAuth, input: TCreateCollectionInput): Promise<TCollection> {
  const { kind, id } = authorColumns(caller);
  const row = await insertCollection.first(em, {
    id: newId('col'),
    organizationId: caller.organizationId,
    name: input.name,
    description: input.description ?? null,
    author: { kind, id },
  });
  if (row) return collectionFromRow(row);
  throw await nameTaken(em, 'collection', caller.organizationId, input.name);
}
