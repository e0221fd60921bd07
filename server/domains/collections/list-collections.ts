import type { TCollection } from '../../../shared/schemas/collections.js';
import type { CursorPage } from '../../../shared/schemas/common.js';
import type { Caller } from '../common/caller.js';
import { cursorPage } from '../common/cursor-page.js';
import type { Deps } from '../common/deps.js';
import { collectionFromRow, collectionPage } from './queries.js';

/** `collections.list`: the organization's collections, newest first, with their item counts. */
export async function listCollections(
  { em }: Pick<Deps, 'em'>,
  caller: Caller,
  input: { cursor?: string | undefined; limit: number },
): Promise<CursorPage<TCollection>> {
  const rows = await collectionPage.rows(em, { organizationId: caller.organizationId, cursor: input.cursor, limit: input.limit });
  return cursorPage(rows, input.limit, collectionFromRow);
}
