import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { deleteCollectionRow } from './queries.js';

/** `collections.delete`: the collection and its items; the highlights themselves stay. */
export async function deleteCollection({ em }: Pick<Deps, 'em'>, caller: Caller, input: { collectionId: string }): Promise<void> {
  const deleted = await deleteCollectionRow.rows(em, { organizationId: caller.organizationId, collectionId: input.collectionId });
  if (deleted.length === 0) throw notFound('collection', input.collectionId, 'collectionId');
}
