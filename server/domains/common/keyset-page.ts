import { type EntityName, type FilterQuery, type FindOptions, raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import { AppError } from '../../errors.js';
import { sortValueOf } from './queries.js';

/**
 * Lists page two ways: by `offset` (the spec's) and by `startingAfter` (a cursor), which holds
 * under inserts and deletes. A cursor page is a keyset query on (sort column, id): no OFFSET scan,
 * and an item created or deleted meanwhile neither repeats nor hides another one.
 */

/** How a list is sorted, as a keyset: a column that never changes and is never null, then the id. */
export interface KeysetSort {
  /** The entity property, for ORDER BY. */
  property: string;
  /** Its column, for the keyset comparison. */
  column: string;
  /** The column's type, so the cursor's text compares at full precision (timestamps in microseconds). */
  type: 'timestamptz' | 'text' | 'integer';
  direction: 'asc' | 'desc';
}

export const NEWEST_FIRST: KeysetSort = { property: 'createdAt', column: 'created_at', type: 'timestamptz', direction: 'desc' };

/** Where a page starts: after the item with this sort value (PostgreSQL's text of it) and id. */
interface Position {
  value: string;
  id: string;
}

const CURSOR_PREFIX = 'cur_';

/** The `nextCursor` of a page whose last item has this sort value (PostgreSQL's text of it) and id. */
export function cursorAfter(value: string, id: string): string {
  return encodeCursor({ value, id });
}

function encodeCursor(position: Position): string {
  return `${CURSOR_PREFIX}${Buffer.from(JSON.stringify([position.value, position.id])).toString('base64url')}`;
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

/** The column types a cursor's value is cast to, and which texts PostgreSQL reads as each. */
export type CursorValueType = KeysetSort['type'] | 'bigint';
const READS_AS: Record<CursorValueType, (value: string) => boolean> = {
  timestamptz: isTimestampText,
  integer: (value) => /^-?\d{1,9}$/.test(value),
  bigint: (value) => /^-?\d{1,18}$/.test(value),
  text: () => true,
};

/**
 * The position a cursor of `cursorAfter` holds when its value reads as `type`; undefined for
 * anything else. A value the cast would refuse must stop here: in the query it would be a 500.
 */
export function decodeCursor(token: string, type: CursorValueType): Position | undefined {
  if (!token.startsWith(CURSOR_PREFIX)) return undefined;
  try {
    const decoded = JSON.parse(Buffer.from(token.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(decoded) && decoded.length === 2 && typeof decoded[0] === 'string' && typeof decoded[1] === 'string' && READS_AS[type](decoded[0])) {
      return { value: decoded[0], id: decoded[1] };
    }
  } catch {
    // not a cursor of ours
  }
  return undefined;
}

function invalidStart(message: string): AppError {
  return new AppError('INVALID_REQUEST', `startingAfter ${message}.`, { fields: [{ path: 'startingAfter', message }] });
}

export interface PageRequest {
  limit: number;
  offset: number;
  startingAfter?: string | undefined;
}

/** Options of the list's query besides filters, order and paging (populate, identity map). */
type QueryOptions<E extends object> = Omit<FindOptions<E, any, any, any>, 'orderBy' | 'limit' | 'offset'>;

export interface FoundPage<E> {
  items: E[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * One page of `where`, newest first by default: after `startingAfter` (a `nextCursor`, or an item
 * id of this list) when given, else from `offset`. `total` counts every match of the filters.
 */
export async function findPage<E extends { id: string }>(
  em: EntityManager,
  entity: EntityName<E>,
  where: FilterQuery<E>,
  request: PageRequest,
  sort: KeysetSort = NEWEST_FIRST,
  options: QueryOptions<E> = {},
): Promise<FoundPage<E>> {
  const meta = em.getMetadata().get(entity);
  const table = meta.tableName;
  const orderBy = { [sort.property]: sort.direction, id: sort.direction } as FindOptions<E>['orderBy'];
  const valueOf = async (id: string): Promise<string | undefined> => {
    const row = await sortValueOf.first(em, { table, column: sort.column, id });
    return row?.value;
  };

  if (request.startingAfter === undefined) {
    const [items, total] = await em.findAndCount(entity, where, { ...options, orderBy, limit: request.limit, offset: request.offset } as FindOptions<E>);
    const hasMore = request.offset + items.length < total;
    const last = items.at(-1);
    const lastValue = hasMore && last ? await valueOf(last.id) : undefined;
    return {
      items,
      total,
      limit: request.limit,
      offset: request.offset,
      hasMore,
      nextCursor: lastValue !== undefined ? encodeCursor({ value: lastValue, id: last!.id }) : null,
    };
  }

  if (request.offset > 0) {
    throw new AppError('INVALID_REQUEST', 'offset cannot be combined with startingAfter.', {
      fields: [{ path: 'offset', message: 'cannot be combined with startingAfter' }],
    });
  }
  let position: Position | undefined;
  if (request.startingAfter.startsWith(CURSOR_PREFIX)) {
    position = decodeCursor(request.startingAfter, sort.type);
    if (!position) throw invalidStart('is not a cursor this API made');
  } else {
    // An item id: it must be an item of this very list (its filters, its organization).
    const anchor = await em.count(entity, { $and: [where, { id: request.startingAfter }] } as FilterQuery<E>);
    const value = anchor > 0 ? await valueOf(request.startingAfter) : undefined;
    if (value === undefined) throw invalidStart('is not an item of this list (pass nextCursor to page past deleted items)');
    position = { value, id: request.startingAfter };
  }
  const comparison = sort.direction === 'desc' ? '<' : '>';
  const after = { [raw((alias) => `((${alias}.${sort.column}, ${alias}.id) ${comparison} (?::${sort.type}, ?))`, [position.value, position.id])]: true };
  const rows = await em.find(entity, { $and: [where, after] } as FilterQuery<E>, { ...options, orderBy, limit: request.limit + 1 } as FindOptions<E>);
  const total = await em.count(entity, where);
  const hasMore = rows.length > request.limit;
  const items = hasMore ? rows.slice(0, request.limit) : rows;
  const last = items.at(-1);
  const lastValue = hasMore && last ? await valueOf(last.id) : undefined;
  return {
    items,
    total,
    limit: request.limit,
    offset: 0,
    hasMore,
    nextCursor: lastValue !== undefined ? encodeCursor({ value: lastValue, id: last!.id }) : null,
  };
}

/** The envelope of a found page, its items turned into their API shape. */
export function pageFrom<E, T>(page: FoundPage<E>, data: T[]): Page<T> {
  return { data, pagination: { total: page.total, limit: page.limit, offset: page.offset, hasMore: page.hasMore, nextCursor: page.nextCursor } };
}
