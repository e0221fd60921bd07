import type { TAddHighlightInput, TCollectionItem } from '../../../shared/schemas/collections.js';
import { notFound } from '../../errors.js';
import { authorColumns } from '../common/author.js';
import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { collectionItem, insertCollectionItem, itemFromRow, lockCollectionForAdd, touchCollection } from './queries.js';

/**
 * `collections.addHighlight`: appends a highlight of the organization to the collection.
 * Idempotent: a highlight already there answers its item unchanged (its place and note). The
 * collection is key-share locked, so a concurrent delete of it waits instead of breaking the
 * insert, while concurrent adds do not block each other.
 */
export async function addHighlightToCollection({ em }: Pick<Deps, 'em'>, caller: CustomerAuth, input: TAddHighlightInput): Promise<TCollectionItem> {
  const organizationId = caller.organizationId;
  const { kind, id } = authorColumns(caller);
  const { collectionId, highlightId } = input;
  return em.transactional(async (tx) => {
    const collection = await lockCollectionForAdd.first(tx, { organizationId, collectionId });
    if (!collection) throw notFound('collection', collectionId, 'collectionId');
    const inserted = await insertCollectionItem.rows(tx, { organizationId, collectionId, highlightId, note: input.note ?? null, addedBy: { kind, id } });
    if (inserted.length > 0) await touchCollection.rows(tx, { collectionId });
    const item = await collectionItem.first(tx, { organizationId, collectionId, highlightId });
    if (!item) throw notFound('highlight', highlightId, 'highlightId');
    return itemFromRow(item);
  });
}
