import type { TAuthor } from '../../../shared/schemas/common.js';
import { defineQuery } from '../../db/query.js';
import { rawSql, type Sql, sql } from '../../db/sql.js';

/** Statements several domains share: authorship (author.ts), unique names (unique-names.ts) and keyset paging (keyset-page.ts). */

/**
 * An author's name as a scalar subquery, as it is now: the member's name (else email) or the key's
 * name. Spliced into a workspace record's write (authorColumns) or read alone (authorName).
 */
export function authorNameSql(author: { kind: TAuthor['kind']; id: string }): Sql {
  return author.kind === 'member'
    ? sql`coalesce((select coalesce(m.name, m.email) from members m where m.id = ${author.id}), 'Member')`
    : sql`coalesce((select k.name from api_keys k where k.id = ${author.id}), 'API key')`;
}

/** An author's name, read now. */
export const authorName = defineQuery({
  columns: { name: 'text' },
  statement: ({ author }: { author: { kind: TAuthor['kind']; id: string } }) => sql`select ${authorNameSql(author)} as name`,
  example: { author: { kind: 'member' as TAuthor['kind'], id: 'mem_example' } },
});

/** The organization's collection with this name, ignoring case. */
export const collectionNamed = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, name }: { organizationId: string; name: string }) =>
    sql`select id from collections where organization_id = ${organizationId} and lower(name) = lower(${name})`,
  example: { organizationId: 'org_example', name: 'Pricing' },
});

/** The organization's saved search with this name, ignoring case. */
export const savedSearchNamed = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, name }: { organizationId: string; name: string }) =>
    sql`select id from saved_searches where organization_id = ${organizationId} and lower(name) = lower(${name})`,
  example: { organizationId: 'org_example', name: 'Pricing' },
});

/**
 * A list item's sort value as PostgreSQL's text of it, for a page's cursor (full precision:
 * timestamps in microseconds). `table` and `column` come from entity metadata, never from input.
 */
export const sortValueOf = defineQuery({
  columns: { value: 'text' },
  statement: ({ table, column, id }: { table: string; column: string; id: string }) =>
    sql`select ${rawSql(column)}::text as value from ${rawSql(table)} where id = ${id}`,
  example: { table: 'projects', column: 'created_at', id: 'prj_example' },
});
