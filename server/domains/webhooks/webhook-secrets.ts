import { randomBytes } from 'node:crypto';
import type { WebhookEndpoint } from '../../entities/index.js';
import type { Sealer } from '../../lib/sealer.js';

/** `whsec_` + 256 random bits. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The secrets a delivery is signed with now: the current one, and during Design B's rotation
 * overlap the previous one too (each delivery then goes out once per secret).
 */
export function signingSecretsOf(
  endpoint: Pick<WebhookEndpoint, 'sealedSecret' | 'sealedPreviousSecret' | 'previousSecretExpiresAt' | 'design'>,
  sealer: Sealer,
  now: Date,
): { secret: string; signedWith: 'current' | 'previous' }[] {
  const secrets: { secret: string; signedWith: 'current' | 'previous' }[] = [{ secret: sealer.open(endpoint.sealedSecret), signedWith: 'current' }];
  if (endpoint.design === 'B' && endpoint.sealedPreviousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push({ secret: sealer.open(endpoint.sealedPreviousSecret), signedWith: 'previous' });
  }
  return secrets;
}
