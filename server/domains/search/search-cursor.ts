import { createHash } from 'node:crypto';
import type { SearchFilters } from '../../../shared/schemas/search.js';
import { AppError } from '../../errors.js';

/**
 * A search page's cursor: the last hit's rank (PostgreSQL's text of the float4, so it compares
 * exactly) and utterance id, and a fingerprint of the query and filters it was made for: a cursor
 * of another search would silently skip or repeat hits, so it is refused instead.
 */
export interface SearchPosition {
  rank: string;
  id: string;
}

const PREFIX = 'srch_';

/** Same query and filters, same fingerprint, whatever order the keys came in. */
function fingerprint(query: string, filters: SearchFilters): string {
  const canonical = Object.fromEntries(
    Object.entries(filters)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return createHash('sha256')
    .update(JSON.stringify([query, canonical]))
    .digest('base64url')
    .slice(0, 12);
}

export function encodeSearchCursor(query: string, filters: SearchFilters, position: SearchPosition): string {
  return `${PREFIX}${Buffer.from(JSON.stringify([position.rank, position.id, fingerprint(query, filters)])).toString('base64url')}`;
}

/** PostgreSQL's text of a float4: plain digits, a fraction, an exponent (`0.0607927`, `6.07927e-05`). */
const RANK_TEXT = /^-?\d{1,20}(\.\d{1,20})?(e[+-]?\d{1,2})?$/;
/** The smallest and largest magnitudes `::real` reads without an out-of-range error (denormals included). */
const REAL_MIN = 1.401298464324817e-45;
const REAL_MAX = 3.4028234663852886e38;

/**
 * Whether `::real` reads `text`: `Number()` alone lets through '', '0x10', ' 1' or 'Infinity',
 * which PostgreSQL refuses (a 500 on a forged cursor).
 */
function isRankText(text: string): boolean {
  if (!RANK_TEXT.test(text)) return false;
  const magnitude = Math.abs(Number(text));
  return magnitude === 0 ? !/[1-9]/.test(text.split('e')[0]!) : magnitude >= REAL_MIN && magnitude <= REAL_MAX;
}

function invalidCursor(message: string): AppError {
  return new AppError('INVALID_REQUEST', `cursor ${message}.`, { fields: [{ path: 'cursor', message }] });
}

export function decodeSearchCursor(token: string, query: string, filters: SearchFilters): SearchPosition {
  let decoded: unknown;
  try {
    decoded = token.startsWith(PREFIX) ? JSON.parse(Buffer.from(token.slice(PREFIX.length), 'base64url').toString('utf8')) : undefined;
  } catch {
    decoded = undefined;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 3 ||
    typeof decoded[0] !== 'string' ||
    !isRankText(decoded[0]) ||
    typeof decoded[1] !== 'string' ||
    typeof decoded[2] !== 'string'
  ) {
    throw invalidCursor('is not a search cursor this API made');
  }
  if (decoded[2] !== fingerprint(query, filters)) throw invalidCursor('belongs to another query or other filters (start again without a cursor)');
  return { rank: decoded[0], id: decoded[1] };
}
