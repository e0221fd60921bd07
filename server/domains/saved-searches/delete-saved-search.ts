import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { deleteSavedSearchRow } from './queries.js';

/** `savedSearches.delete`. */
export async function deleteSavedSearch({ em }: Pick<Deps, 'em'>, caller: Caller, input: { savedSearchId: string }): Promise<void> {
  const deleted = await deleteSavedSearchRow.rows(em, { organizationId: caller.organizationId, savedSearchId: input.savedSearchId });
  if (deleted.length === 0) throw notFound('savedSearch', input.savedSearchId, 'savedSearchId');
}
