import type { CursorPage } from '../../../shared/schemas/common.js';
import { rawSql, type Sql, sql } from '../../db/sql.js';
import { AppError } from '../../errors.js';
import { cursorAfter, type CursorValueType, decodeCursor } from './keyset-page.js';

/**
 * The workspace lists page newest first by (created_at, id), with the cursors keyset-page.ts
 * makes: `cur_` and the base64url JSON of [PostgreSQL's text of the sort value, id].
 */

/** The sort value a workspace list's `cursor` holds, as `type`; 400 on `cursor` for anything else. */
export function cursorValueOf(cursor: string, type: CursorValueType): { value: string; id: string } {
  const position = decodeCursor(cursor, type);
  if (!position)
    throw new AppError('INVALID_REQUEST', 'cursor is not a cursor this API made.', { fields: [{ path: 'cursor', message: 'is not a cursor this API made' }] });
  return position;
}

/** The keyset condition of a page after `cursor` on `alias`.created_at, `alias`.id, newest first (`true` for the first page). */
export function afterCursor(alias: string, cursor: string | undefined): Sql {
  if (cursor === undefined) return sql`true`;
  const position = cursorValueOf(cursor, 'timestamptz');
  return sql`(${rawSql(alias)}.created_at, ${rawSql(alias)}.id) < (${position.value}::timestamptz, ${position.id})`;
}

/** A page from `limit + 1` rows fetched in list order, each with its sort value as text (`sort_value`). */
export function cursorPage<R extends { id: string; sort_value: string }, T>(rows: R[], limit: number, toDto: (row: R) => T): CursorPage<T> {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  return { data: page.map(toDto), hasMore, nextCursor: hasMore && last ? cursorAfter(last.sort_value, last.id) : null };
}
