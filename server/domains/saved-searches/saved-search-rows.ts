import type { SearchFilters } from '../../../shared/schemas/search.js';
import type { TSavedSearch } from '../../../shared/schemas/saved-searches.js';
import { isoTimestamp, rawSql } from '../../db/sql.js';
import { authorFromRow } from '../common/author.js';

export interface SavedSearchRow {
  id: string;
  name: string;
  query: string;
  filters: SearchFilters;
  author_kind: string;
  author_id: string;
  author_name: string;
  created_at: string;
  updated_at: string;
  sort_value: string;
}

/** The columns of a SavedSearchRow from `ss` (saved_searches, or a CTE returning its rows). */
export const SAVED_SEARCH_COLUMNS = rawSql(
  `ss.id, ss.name, ss.query, ss.filters, ss.author_kind, ss.author_id, ss.author_name,
   ${isoTimestamp('ss.created_at')} as created_at, ${isoTimestamp('ss.updated_at')} as updated_at, ss.created_at::text as sort_value`,
);

export function savedSearchFromRow(row: SavedSearchRow): TSavedSearch {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    filters: row.filters,
    author: authorFromRow(row.author_kind, row.author_id, row.author_name),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

