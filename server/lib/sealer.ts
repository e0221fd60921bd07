import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Encrypts what the service keeps only to use later (responses for idempotent replays, webhook
 * signing secrets), with AES-256-GCM under a key derived from the signing secret, one key per
 * purpose. Stored responses can hold invite tokens and participants' addresses, and a webhook
 * secret lets anyone forge deliveries: a copy of the database alone must reveal neither.
 */
export class Sealer {
  readonly #key: Buffer;

  constructor(signingSecret: string, purpose: 'stored-responses/v1' | 'webhook-secrets/v1' = 'stored-responses/v1') {
    this.#key = createHmac('sha256', signingSecret).update(purpose).digest();
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v1:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  /** Throws when the text was not sealed with this key (tampered, or the secret changed). */
  open(sealed: string): string {
    if (!sealed.startsWith('v1:')) throw new Error('not a sealed value');
    const bytes = Buffer.from(sealed.slice(3), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}
