import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Uniform random base62 string. Rejection sampling (bytes >= 248 are dropped) keeps every
 * character equally likely, so `length` characters carry length * log2(62) bits.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Encodes a non-negative integer in base62, left-padded with zeros to `width`. */
export function toBase62(value: number, width: number): string {
  let n = value;
  let out = '';
  do {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  } while (n > 0);
  return out.padStart(width, '0');
}

export const ID_PREFIXES = {
  organization: 'org',
  apiKey: 'key',
  member: 'mem',
  project: 'prj',
  script: 'scr',
  campaign: 'cam',
  invite: 'inv',
  shareLink: 'shl',
  session: 'ses',
  utterance: 'utt',
  feedback: 'fbk',
  file: 'fil',
  creditTransaction: 'txn',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  memberSession: 'mss',
  invoice: 'ivc',
  transcriptAudit: 'tau',
  anonymizedExport: 'anx',
  highlight: 'hlt',
  comment: 'cmt',
  collection: 'col',
  savedSearch: 'svs',
  stakeholderLink: 'stl',
} as const;

export type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES];

/** `<prefix>_<22 base62 chars>`: about 131 random bits, URL-safe, opaque. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}
