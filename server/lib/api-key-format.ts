import { createHash, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { randomBase62, toBase62 } from './ids.js';

/** Live keys: `isk_live_` + 32 random base62 characters (~190 bits) + 6-character CRC32 checksum. */
export const API_KEY_PREFIX = 'isk_live_';
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);

function checksumOf(secret: string): string {
  return toBase62(crc32(secret), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const secret = randomBase62(SECRET_LENGTH);
  return `${API_KEY_PREFIX}${secret}${checksumOf(secret)}`;
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
