import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

/** Access tokens live 15 minutes; the refresh token that renews them 30 days, a signed-in session at most 90. */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_SECONDS = 30 * 86_400;
export const MEMBER_SESSION_MAX_SECONDS = 90 * 86_400;
/** Invitation links work once, for 7 days. */
export const INVITATION_SECONDS = 7 * 86_400;

const AUDIENCE = 'interview-service/first-party';
const TOKEN_TYPE = 'member_access';

export interface AccessTokenClaims {
  memberId: string;
  organizationId: string;
  sessionId: string;
}

export interface IssuedAccessToken {
  token: string;
  expiresAt: Date;
}

/**
 * Members' access tokens: HS256 JWTs (jose) under a key of their own, derived from the signing
 * secret, so a signed download link can never pass for an access token (nor the reverse).
 */
export class MemberTokens {
  readonly #key: Uint8Array;
  readonly #issuer: string;

  constructor(secret: string, issuer: string) {
    this.#key = new Uint8Array(hkdfSync('sha256', secret, '', 'member-access-tokens/v1', 32));
    this.#issuer = issuer;
  }

  async issueAccessToken(claims: AccessTokenClaims, now = new Date()): Promise<IssuedAccessToken> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expiresAt = new Date((issuedAt + ACCESS_TOKEN_SECONDS) * 1000);
    const token = await new SignJWT({ typ: TOKEN_TYPE, org: claims.organizationId, sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.memberId)
      .setIssuer(this.#issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ACCESS_TOKEN_SECONDS)
      // Two tokens issued in the same second still differ (logs, revocation lists).
      .setJti(randomBytes(12).toString('base64url'))
      .sign(this.#key);
    return { token, expiresAt };
  }

  /** The claims of a valid, unexpired token of ours; undefined for anything else. */
  async verifyAccessToken(token: string): Promise<AccessTokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#key, { algorithms: ['HS256'], issuer: this.#issuer, audience: AUDIENCE });
      if (payload.typ !== TOKEN_TYPE || typeof payload.sub !== 'string' || typeof payload.org !== 'string' || typeof payload.sid !== 'string') return undefined;
      return { memberId: payload.sub, organizationId: payload.org, sessionId: payload.sid };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return undefined;
      throw error;
    }
  }
}

/** Three base64url parts: what a JWT looks like, before any verification. */
export function looksLikeJwt(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);
}

/** An opaque one-use secret (`rft_…` refresh token, `mit_…` member invitation): 256 random bits. */
export function newSecretToken(prefix: 'rft' | 'mit'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Stored in place of the secret, and looked up by. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
