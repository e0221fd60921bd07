import { createHash, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { randomBase62, toBase62 } from './ids.js';

/**
 * Keys: `isk_live_` (live) or `isk_test_` (the organization's test world) + 32 random base62
 * characters (~190 bits) + 6-character CRC32 checksum. The mode is in the prefix so a reader (and
 * a secret scanner) tells a test key from a live one at a glance; the service decides by the
 * key's row, never by the prefix.
 */
export const API_KEY_PREFIXES = { live: 'isk_live_', test: 'isk_test_' } as const;
export type ApiKeyMode = keyof typeof API_KEY_PREFIXES;
export const API_KEY_PREFIX = API_KEY_PREFIXES.live;
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const API_KEY_PATTERN = new RegExp(`^isk_(?:live|test)_([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);

function checksumOf(secret: string): string {
  return toBase62(crc32(secret), CHECKSUM_LENGTH);
}

export function generateApiKey(mode: ApiKeyMode = 'live'): string {
  const secret = randomBase62(SECRET_LENGTH);
  return `${API_KEY_PREFIXES[mode]}${secret}${checksumOf(secret)}`;
}

/**
 * Offline check of shape and checksum, so typos and scanned garbage are rejected without a
 * database round trip (and secret scanners can recognise real keys).
 */
export function isWellFormedApiKey(candidate: string): boolean {
  const match = API_KEY_PATTERN.exec(candidate);
  if (!match) return false;
  const expected = Buffer.from(checksumOf(match[1]!));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Keys are stored and looked up only by this hash; the key itself is shown once. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** What lists may show of a key: enough to recognise it, nothing to use it. */
export function apiKeyHint(apiKey: string): string {
  return `${apiKey.slice(0, API_KEY_PREFIX.length + 4)}…${apiKey.slice(-4)}`;
}
