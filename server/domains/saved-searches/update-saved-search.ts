import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSavedSearch, TUpdateSavedSearchInput } from '../../../shared/schemas/saved-searches.js';
import { queryRows, sql } from '../../db/sql.js';
import { nameTaken, withUniqueName } from '../common/unique-names.js';
import { resolveCampaignScope } from '../search/index.js';
import { SAVED_SEARCH_COLUMNS, type SavedSearchRow, savedSearchFromRow } from './saved-search-rows.js';
import { notFound } from '../../errors.js';

/**
 * `savedSearches.update`: name, text, filters (replaced as a whole, checked as on create: 404 for
 * a campaign or project not the organization's); 409 NAME_TAKEN when another saved search has the name.
 */
export async function updateSavedSearch(em: EntityManager, organizationId: string, input: TUpdateSavedSearchInput): Promise<TSavedSearch> {
  if (input.filters !== undefined) await resolveCampaignScope(em, { organizationId }, input.filters);
  const filters = input.filters === undefined ? null : JSON.stringify(input.filters);
  const [row] = await withUniqueName(
    () =>
      queryRows<SavedSearchRow>(
        em,
        sql`with ss as (
              update saved_searches set
                name = coalesce(${input.name ?? null}, name),
                query = coalesce(${input.query ?? null}, query),
                filters = coalesce(${filters}::jsonb, filters),
                updated_at = now()
              where id = ${input.savedSearchId} and organization_id = ${organizationId}
              returning *)
            select ${SAVED_SEARCH_COLUMNS} from ss`,
      ),
    () => nameTaken(em, 'saved search', organizationId, input.name ?? ''),
  );
  if (!row) throw notFound('savedSearch', input.savedSearchId, 'savedSearchId');
  return savedSearchFromRow(row);
}
