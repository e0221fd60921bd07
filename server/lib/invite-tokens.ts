import { createHash, createHmac } from 'node:crypto';

/** `inv_` + 43 base62 characters (256 bits): longer than an invite id (`inv_` + 22), never confused with one. */
const TOKEN_BODY_LENGTH = 43;
const TOKEN_PATTERN = new RegExp(`^inv_[0-9A-Za-z]{${TOKEN_BODY_LENGTH}}$`);
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62OfBytes(bytes: Buffer, width: number): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(width, '0');
}

/**
 * Participant tokens. A token is HMAC(key, inviteId), so the API can show an invite's token and
 * link on every read while the database holds only its SHA-256: a copy of the database alone
 * (a backup, a replica) does not let anyone join an interview when SIGNING_SECRET is set in the
 * environment. Rotating that secret invalidates every outstanding invite link.
 */
export class InviteTokens {
  readonly #key: Buffer;

  constructor(signingSecret: string) {
    // A key of its own, so a token can never double as a signature made for file links.
    this.#key = createHmac('sha256', signingSecret).update('invite-tokens/v1').digest();
  }

  tokenFor(inviteId: string): string {
    return `inv_${base62OfBytes(createHmac('sha256', this.#key).update(inviteId).digest(), TOKEN_BODY_LENGTH)}`;
  }
}

export function isWellFormedInviteToken(candidate: string): boolean {
  return TOKEN_PATTERN.test(candidate);
}

/** Tokens are looked up only by this hash. */
export function hashInviteToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
