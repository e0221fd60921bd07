import { AppError, notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { removeCollectionItem } from './queries.js';

/** `collections.removeHighlight`: takes the highlight out of the collection (the highlight stays); 404 when it is not in it. */
export async function removeHighlightFromCollection(
  { em }: Pick<Deps, 'em'>,
  caller: Caller,
  input: { collectionId: string; highlightId: string },
): Promise<void> {
  const { collectionId, highlightId } = input;
  const row = await removeCollectionItem.first(em, { organizationId: caller.organizationId, collectionId, highlightId });
  if (!row?.collection_found) throw notFound('collection', collectionId, 'collectionId');
  if (!row.removed) {
    throw new AppError('RESOURCE_NOT_FOUND', `Highlight ${highlightId} is not in collection ${collectionId}.`, {
      resource: 'collectionItem',
      id: highlightId,
      fields: [{ path: 'highlightId', message: 'is not in this collection' }],
    });
  }
}
