import type { CursorPage } from '../../../shared/schemas/highlights.js';
import { rawSql, type Sql, sql } from '../../db/sql.js';
import { AppError } from '../../errors.js';
import { cursorAfter } from '../keyset-page.js';

/**
 * The workspace lists page newest first by (created_at, id), with the cursors keyset-page.ts
 * makes: `cur_` and the base64url JSON of [PostgreSQL's text of created_at, id].
 */
export interface CursorPosition {
  createdAt: string;
  id: string;
}

export function nextCursorOf(createdAtText: string, id: string): string {
  return cursorAfter(createdAtText, id);
}

/** PostgreSQL's text of a timestamptz, e.g. `2026-11-26 10:15:30.123+00`. */
const TIMESTAMP_TEXT = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(\.\d{1,6})?[+-](\d\d)(?::(\d\d))?$/;

/**
 * Whether PostgreSQL reads `text` as a timestamptz: its shape, and a date and time that exist
 * (no month 13, no 31 February, no hour 24).
 */
function isTimestampText(text: string): boolean {
  const match = TIMESTAMP_TEXT.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second, , offsetHours, offsetMinutes] = match.slice(1).map(Number) as number[];
  const calendar = new Date(0);
  calendar.setUTCFullYear(year!, month! - 1, day!);
  const realDate = calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month! - 1 && calendar.getUTCDate() === day;
  return realDate && year! >= 1 && hour! < 24 && minute! < 60 && second! < 60 && offsetHours! <= 15 && (Number.isNaN(offsetMinutes!) || offsetMinutes! < 60);
}

export function decodeListCursor(token: string): CursorPosition {
  const invalid = () => new AppError('INVALID_REQUEST', 'cursor is not a cursor this API made.', { fields: [{ path: 'cursor', message: 'is not a cursor this API made' }] });
  if (!token.startsWith('cur_')) throw invalid();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token.slice(4), 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(decoded) || decoded.length !== 2 || typeof decoded[0] !== 'string' || typeof decoded[1] !== 'string') throw invalid();
  // A value PostgreSQL cannot read as a timestamp would be a 500 in the query: refuse it here.
  if (!isTimestampText(decoded[0])) throw invalid();
  return { createdAt: decoded[0], id: decoded[1] };
}

/** The keyset condition of a page after `cursor` on `alias`.created_at, `alias`.id, newest first (`true` for the first page). */
export function afterCursor(alias: string, cursor: string | undefined): Sql {
  if (cursor === undefined) return sql`true`;
  const position = decodeListCursor(cursor);
  return sql`(${rawSql(alias)}.created_at, ${rawSql(alias)}.id) < (${position.createdAt}::timestamptz, ${position.id})`;
}

/** A page from `limit + 1` rows fetched newest first, each with its created_at as text (`sort_value`). */
export function cursorPage<R extends { id: string; sort_value: string }, T>(rows: R[], limit: number, toDto: (row: R) => T): CursorPage<T> {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  return { data: page.map(toDto), hasMore, nextCursor: hasMore && last ? nextCursorOf(last.sort_value, last.id) : null };
}
