import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Encrypts what the service keeps only to send back later (idempotent replays), with AES-256-GCM
 * under a key derived from the signing secret. Stored responses can hold invite tokens and
 * participants' addresses; a copy of the database alone must not reveal them.
 */
export class ResponseSealer {
  readonly #key: Buffer;

  constructor(signingSecret: string) {
    this.#key = createHmac('sha256', signingSecret).update('stored-responses/v1').digest();
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
