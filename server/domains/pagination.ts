import type { Page } from '../../shared/schemas/common.js';

export function pageOf<T>(data: T[], total: number, limit: number, offset: number): Page<T> {
  return { data, pagination: { total, limit, offset, hasMore: offset + data.length < total } };
}

/** For `$ilike` searches: the user's text matches literally, `%` and `_` included. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
