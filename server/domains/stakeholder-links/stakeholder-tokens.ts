import { createHash } from 'node:crypto';
import { randomBase62 } from '../../lib/ids.js';

/** 32 base62 characters from the CSPRNG, about 190 random bits: URL-safe, and no link can be guessed. */
const TOKEN_LENGTH = 32;
const TOKEN_PATTERN = new RegExp(`^[0-9A-Za-z]{${TOKEN_LENGTH}}$`);

export function newStakeholderToken(): string {
  return randomBase62(TOKEN_LENGTH);
}

/**
 * What is stored and looked up: SHA-256 of the token, hex. A database holding only hashes gives
 * no one a working link. The lookup is an equality on the hash, so the time it takes says nothing
 * about the token (finding a token whose hash shares a prefix is as hard as guessing one); no
 * comparison of the token itself ever happens.
 */
export function hashStakeholderToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Anything else (a wrong length, a character outside base62) names no link: 404 without a lookup. */
export function isWellFormedStakeholderToken(candidate: string): boolean {
  return TOKEN_PATTERN.test(candidate);
}
