import type { TCollection, TCollectionItem } from '../../../shared/schemas/collections.js';
import type { CursorPage } from '../../../shared/schemas/common.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import { cursorPage } from '../common/cursor-page.js';
import type { Deps } from '../common/deps.js';
import { collectionById, collectionExists, collectionFromRow, collectionItemsPage, itemFromRow } from './queries.js';

/** `collections.get`: the collection with its item count (its items are paged by `collections.items`). */
export async function getCollection({ em }: Pick<Deps, 'em'>, caller: Caller, input: { collectionId: string }): Promise<TCollection> {
  const row = await collectionById.first(em, { organizationId: caller.organizationId, collectionId: input.collectionId });
  if (!row) throw notFound('collection', input.collectionId, 'collectionId');
  return collectionFromRow(row);
}

/**
 * `collections.items`: a page of the collection's items in the order they were added, each with
 * its highlight as it is now. Another organization's collection is 404, an empty one an empty page.
 * The cursor is the last item's place in that order, so an item added or removed meanwhile neither
 * repeats nor hides another.
 */
export async function listCollectionItems(
  { em }: Pick<Deps, 'em'>,
  caller: Caller,
  input: { collectionId: string; cursor?: string | undefined; limit: number },
): Promise<CursorPage<TCollectionItem>> {
  const organizationId = caller.organizationId;
  // The page's statement first: a cursor it cannot read is a 400 before either statement runs.
  const [rows, exists] = await Promise.all([
    collectionItemsPage.rows(em, { organizationId, collectionId: input.collectionId, cursor: input.cursor, limit: input.limit }),
    collectionExists.first(em, { organizationId, collectionId: input.collectionId }),
  ]);
  if (!exists) throw notFound('collection', input.collectionId, 'collectionId');
  // Paged by the item's place, not by the highlight's creation time its row also carries.
  return cursorPage(
    rows.map((row) => ({ ...row, sort_value: row.item_position })),
    input.limit,
    itemFromRow,
  );
}
