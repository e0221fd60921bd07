import { randomBytes } from 'node:crypto';
import type { WebhookEndpoint } from '../../entities/index.js';
import type { Sealer } from '../../lib/sealer.js';

/**
 * `whsec_` + 256 random bits in standard base64: the format Standard Webhooks keys with (the bytes
 * the base64 encodes), and for the designs' own signatures a key like any other (its UTF-8).
 * Secrets made before Standard Webhooks signing were base64url, which its libraries cannot decode.
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Whether a rotation keeps the old secret signing for a while: Design B's duplicate requests, Standard Webhooks' second signature. */
export function overlapsRotation(endpoint: Pick<WebhookEndpoint, 'design' | 'signatureScheme'>): boolean {
  return endpoint.design === 'B' || endpoint.signatureScheme === 'standard_webhooks';
}

/**
 * The secrets a delivery is signed with now: the current one, and during a rotation's overlap
 * the previous one too (Design B: a request per secret; Standard Webhooks: both in one header).
 */
export function signingSecretsOf(
  endpoint: Pick<WebhookEndpoint, 'sealedSecret' | 'sealedPreviousSecret' | 'previousSecretExpiresAt' | 'design' | 'signatureScheme'>,
  sealer: Sealer,
  now: Date,
): { secret: string; signedWith: 'current' | 'previous' }[] {
  const secrets: { secret: string; signedWith: 'current' | 'previous' }[] = [{ secret: sealer.open(endpoint.sealedSecret), signedWith: 'current' }];
  if (overlapsRotation(endpoint) && endpoint.sealedPreviousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push({ secret: sealer.open(endpoint.sealedPreviousSecret), signedWith: 'previous' });
  }
  return secrets;
}
