import type { CustomerAuth } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCreateSavedSearchInput, TSavedSearch } from '../../../shared/schemas/saved-searches.js';
import { queryRows, sql } from '../../db/sql.js';
import { newId } from '../../lib/ids.js';

import { authorColumns } from '../common/author.js';
import { nameTaken } from '../common/unique-names.js';
import { resolveCampaignScope } from '../search/index.js';
import { SAVED_SEARCH_COLUMNS, type SavedSearchRow, savedSearchFromRow } from './saved-search-rows.js';

/**
 * `savedSearches.create`: a search's text and filters, kept as `search.query` takes them; 404 for a
 * campaign or project filter naming none of the organization's (as the search would answer);
 * 409 NAME_TAKEN when the name is in use.
 */
export async function createSavedSearch(em: EntityManager, auth: CustomerAuth, input: TCreateSavedSearchInput): Promise<TSavedSearch> {
  await resolveCampaignScope(em, auth, input.filters);
  const author = authorColumns(auth);
  const [row] = await queryRows<SavedSearchRow>(
    em,
    sql`with ss as (
          insert into saved_searches (id, organization_id, name, query, filters, author_kind, author_id, author_name, created_at, updated_at)
          values (${newId('svs')}, ${auth.organizationId}, ${input.name}, ${input.query}, ${JSON.stringify(input.filters)}::jsonb, ${author.kind}, ${author.id}, ${author.name}, now(), now())
          on conflict do nothing
          returning *)
        select ${SAVED_SEARCH_COLUMNS} from ss`,
  );
  if (row) return savedSearchFromRow(row);
  throw await nameTaken(em, 'saved search', auth.organizationId, input.name);
}
