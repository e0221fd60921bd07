import type { TCollection, TUpdateCollectionInput } from '../../../shared/schemas/collections.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { nameTaken, withUniqueName } from '../common/unique-names.js';
import { collectionFromRow, updateCollectionRow } from './queries.js';

/** `collections.update`: name and description (`null` clears it); 409 NAME_TAKEN when another collection has the name. */
export async function updateCollection({ em }: Pick<Deps, 'em'>, caller: Caller, input: TUpdateCollectionInput): Promise<TCollection> {
  const organizationId = caller.organizationId;
  const row = await withUniqueName(
    () => updateCollectionRow.first(em, { organizationId, collectionId: input.collectionId, name: input.name ?? null, description: input.description }),
    () => nameTaken(em, 'collection', organizationId, input.name ?? ''),
  );
  if (!row) throw notFound('collection', input.collectionId, 'collectionId');
  return collectionFromRow(row);
}
