import type { TCreateSavedSearchInput, TSavedSearch } from '../../../shared/schemas/saved-searches.js';
import { newId } from '../../lib/ids.js';
import { authorColumns } from '../common/author.js';
import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { nameTaken } from '../common/unique-names.js';
import { resolveCampaignScope } from '../search/index.js';
import { insertSavedSearch } from './queries.js';
import { savedSearchFromRow } from './saved-search-rows.js';

/**
 * `savedSearches.create`: a search's text and filters, kept as `search.query` takes them; 404 for a
 * campaign or project filter naming none of the organization's (as the search would answer);
 * 409 NAME_TAKEN when the name is in use.
 */
export async function createSavedSearch({ em }: Pick<Deps, 'em'>, auth: CustomerAuth, input: TCreateSavedSearchInput): Promise<TSavedSearch> {
  await resolveCampaignScope(em, auth, input.filters);
  const row = await insertSavedSearch.first(em, {
    id: newId('svs'),
    organizationId: auth.organizationId,
    name: input.name,
    query: input.query,
    filters: input.filters,
    author: authorColumns(auth),
  });
  if (row) return savedSearchFromRow(row);
  throw await nameTaken(em, 'saved search', auth.organizationId, input.name);
}
