import type { CursorPage } from '../../../shared/schemas/common.js';
import type { TSavedSearch } from '../../../shared/schemas/saved-searches.js';
import type { Caller } from '../common/caller.js';
import { cursorPage } from '../common/cursor-page.js';
import type { Deps } from '../common/deps.js';
import { savedSearchesPage } from './queries.js';
import { savedSearchFromRow } from './saved-search-rows.js';

/** `savedSearches.list`: the organization's saved searches, newest first. */
export async function listSavedSearches(
  { em }: Pick<Deps, 'em'>,
  caller: Caller,
  input: { cursor?: string | undefined; limit: number },
): Promise<CursorPage<TSavedSearch>> {
  const rows = await savedSearchesPage.rows(em, { organizationId: caller.organizationId, cursor: input.cursor, limit: input.limit });
  return cursorPage(rows, input.limit, savedSearchFromRow);
}
