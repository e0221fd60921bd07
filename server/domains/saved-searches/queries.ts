import type { SearchFilters } from '../../../shared/schemas/search.js';
import { defineQuery } from '../../db/query.js';
import { isoTimestamp, rawSql, sql } from '../../db/sql.js';
import { type AuthorColumns, authorColumns } from '../common/author.js';
import { afterCursor } from '../common/cursor-page.js';
import { cursorAfter } from '../common/keyset-page.js';

/** The columns of a saved search row from `ss` (saved_searches, or a CTE returning its rows). */
const SAVED_SEARCH_COLUMNS = rawSql(
  `ss.id, ss.name, ss.query, ss.filters, ss.author_kind, ss.author_id, ss.author_name,
   ${isoTimestamp('ss.created_at')} as created_at, ${isoTimestamp('ss.updated_at')} as updated_at, ss.created_at::text as sort_value`,
);

/** What every statement here answers: one saved search. */
const savedSearchColumns = {
  id: 'text',
  name: 'text',
  query: 'text',
  filters: 'jsonb',
  author_kind: 'text',
  author_id: 'text',
  author_name: 'text',
  created_at: 'text',
  updated_at: 'text',
  sort_value: 'text',
} as const;

/** A new saved search, or no row when its name is taken (`on conflict do nothing`). */
export const insertSavedSearch = defineQuery({
  columns: savedSearchColumns,
  statement: (row: { id: string; organizationId: string; name: string; query: string; filters: SearchFilters; author: AuthorColumns }) =>
    sql`with ss as (
          insert into saved_searches (id, organization_id, name, query, filters, author_kind, author_id, author_name, created_at, updated_at)
          values (${row.id}, ${row.organizationId}, ${row.name}, ${row.query}, ${JSON.stringify(row.filters)}::jsonb, ${row.author.kind}, ${row.author.id}, ${row.author.name}, now(), now())
          on conflict do nothing
          returning *)
        select ${SAVED_SEARCH_COLUMNS} from ss`,
  example: {
    id: 'svs_example',
    organizationId: 'org_example',
    name: 'Pricing',
    query: 'price',
    filters: {},
    author: authorColumns({ kind: 'api_key', organizationId: 'org_example', apiKeyId: 'key_example', permissions: [], livemode: true }),
  },
});

/** Deletes the organization's saved search: its id, or no row when there is none. */
export const deleteSavedSearchRow = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, savedSearchId }: { organizationId: string; savedSearchId: string }) =>
    sql`delete from saved_searches where id = ${savedSearchId} and organization_id = ${organizationId} returning id`,
  example: { organizationId: 'org_example', savedSearchId: 'svs_example' },
});

/** A page of the organization's saved searches, newest first, one more than `limit` (is there more). */
export const savedSearchesPage = defineQuery({
  columns: savedSearchColumns,
  statement: ({ organizationId, cursor, limit }: { organizationId: string; cursor: string | undefined; limit: number }) =>
    sql`select ${SAVED_SEARCH_COLUMNS} from saved_searches ss
        where ss.organization_id = ${organizationId} and ${afterCursor('ss', cursor)}
        order by ss.created_at desc, ss.id desc limit ${limit + 1}`,
  example: { organizationId: 'org_example', cursor: cursorAfter('2026-01-01 00:00:00+00', 'svs_example') as string | undefined, limit: 20 },
});

/** Changes what is given (null: unchanged) of the organization's saved search; no row when there is none. */
export const updateSavedSearchRow = defineQuery({
  columns: savedSearchColumns,
  statement: (change: { organizationId: string; savedSearchId: string; name: string | null; query: string | null; filters: string | null }) =>
    sql`with ss as (
              update saved_searches set
                name = coalesce(${change.name}, name),
                query = coalesce(${change.query}, query),
                filters = coalesce(${change.filters}::jsonb, filters),
                updated_at = now()
              where id = ${change.savedSearchId} and organization_id = ${change.organizationId}
              returning *)
            select ${SAVED_SEARCH_COLUMNS} from ss`,
  example: {
    organizationId: 'org_example',
    savedSearchId: 'svs_example',
    name: 'Pricing' as string | null,
    query: null as string | null,
    filters: '{}' as string | null,
  },
});
