import { webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

/**
 * What a signed link may open. The purpose is checked so a link for one kind of file never opens
 * another. `session_transcript` (webhooks' `transcript_url`, JSON), `session_transcript_text` and
 * `session_report_pdf` (the dashboard's downloads) name a session, `invoice_pdf` an invoice,
 * `turn_audio` an AI utterance of a session (`<sessionId>/<utteranceId>`), `question_media` a
 * script media file as one session's participant sees it (`<sessionId>/<mediaId>`), the others a file.
 */
export const SIGNED_FILE_PURPOSES = [
  'script_media',
  'session_file',
  'session_transcript',
  'anonymized_export',
  'session_transcript_text',
  'session_report_pdf',
  'invoice_pdf',
  'turn_audio',
  'question_media',
] as const;
export type SignedFilePurpose = (typeof SIGNED_FILE_PURPOSES)[number];

export interface SignedFileClaims {
  fileId: string;
  purpose: SignedFilePurpose;
}

export interface SignedLink {
  url: string;
  expiresAt: Date;
}

/**
 * Signed download links (HS256 JWS via jose): the link itself is the credential, valid for a
 * fixed time, so browsers and audio players can fetch files without an API key.
 */
export class UrlSigner {
  /**
   * The HMAC key, imported once: given raw bytes, jose imports a WebCrypto key on every sign and
   * verify, which was half the cost of signing a webhook's transcript link (bench:webhooks profile).
   */
  readonly #key: Promise<webcrypto.CryptoKey>;
  readonly #publicUrl: string;

  constructor(secret: string, publicUrl: string) {
    this.#key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    this.#publicUrl = publicUrl;
  }

  async signFileLink(claims: SignedFileClaims, validForSeconds: number, now = new Date()): Promise<SignedLink> {
    const expiresAt = new Date(Math.floor(now.getTime() / 1000) * 1000 + validForSeconds * 1000);
    const token = await new SignJWT({ pur: claims.purpose })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.fileId)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(await this.#key);
    return { url: `${this.#publicUrl}/files/${token}`, expiresAt };
  }

  /** Undefined for anything forged, expired or malformed. */
  async verifyFileToken(token: string): Promise<SignedFileClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, await this.#key, { algorithms: ['HS256'] });
      const purpose = SIGNED_FILE_PURPOSES.find((known) => known === payload.pur);
      if (typeof payload.sub !== 'string' || !purpose) return undefined;
      return { fileId: payload.sub, purpose };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return undefined;
      throw error;
    }
  }
}
