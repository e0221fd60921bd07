import { randomBase62 } from '../../lib/ids.js';

/** 20 base62 characters, about 119 random bits: a link that was not shared with you cannot be guessed. */
const SHARE_CODE_LENGTH = 20;
const SHARE_CODE_PATTERN = new RegExp(`^[0-9A-Za-z]{${SHARE_CODE_LENGTH}}$`);

export function newShareCode(): string {
  return randomBase62(SHARE_CODE_LENGTH);
}

/** Anything else (a NUL, a wrong length) cannot name a link: answered 404 without a database lookup. */
export function isWellFormedShareCode(candidate: string): boolean {
  return SHARE_CODE_PATTERN.test(candidate);
}
