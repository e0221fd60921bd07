import type { SearchFilters } from '../../../shared/schemas/search.js';
import type { TSavedSearch } from '../../../shared/schemas/saved-searches.js';
import type { RowOf } from '../../db/query.js';
import { authorFromRow } from '../common/author.js';
import type { savedSearchesPage } from './queries.js';

export type SavedSearchRow = RowOf<(typeof savedSearchesPage)['columns']>;

export function savedSearchFromRow(row: SavedSearchRow): TSavedSearch {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    filters: row.filters as SearchFilters,
    author: authorFromRow(row.author_kind, row.author_id, row.author_name),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
