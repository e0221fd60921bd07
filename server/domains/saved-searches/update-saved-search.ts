import type { TSavedSearch, TUpdateSavedSearchInput } from '../../../shared/schemas/saved-searches.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { nameTaken, withUniqueName } from '../common/unique-names.js';
import { resolveCampaignScope } from '../search/index.js';
import { updateSavedSearchRow } from './queries.js';
import { savedSearchFromRow } from './saved-search-rows.js';

/**
 * `savedSearches.update`: name, text, filters (replaced as a whole, checked as on create: 404 for
 * a campaign or project not the organization's); 409 NAME_TAKEN when another saved search has the name.
 */
export async function updateSavedSearch({ em }: Pick<Deps, 'em'>, caller: Caller, input: TUpdateSavedSearchInput): Promise<TSavedSearch> {
  const { organizationId } = caller;
  if (input.filters !== undefined) await resolveCampaignScope(em, caller, input.filters);
  const filters = input.filters === undefined ? null : JSON.stringify(input.filters);
  const [row] = await withUniqueName(
    () => updateSavedSearchRow.rows(em, { organizationId, savedSearchId: input.savedSearchId, name: input.name ?? null, query: input.query ?? null, filters }),
    () => nameTaken(em, 'saved search', organizationId, input.name ?? ''),
  );
  if (!row) throw notFound('savedSearch', input.savedSearchId, 'savedSearchId');
  return savedSearchFromRow(row);
}
