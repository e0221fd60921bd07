import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { ZWebhookEndpointWithSecret } from '../../../shared/schemas/webhooks.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { WebhookAdminServices } from './webhook-services.js';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';
import { toWebhookEndpointDto } from './serialize.js';
import { newWebhookSecret, overlapsRotation } from './webhook-secrets.js';

/** A secret sealed under another SIGNING_SECRET cannot sign anything: it is not kept as the previous one. */
function canOpen(services: WebhookAdminServices, sealed: string): boolean {
  try {
    services.webhookSecrets.open(sealed);
    return true;
  } catch {
    return false;
  }
}

/**
 * `POST /api/webhooks/{endpointId}/rotate-secret`: a new secret, shown once. Design A: it signs
 * everything from now on, retries of earlier events included (the spec: no dual signing). Design
 * B: for WEBHOOK_ROTATION_OVERLAP_SECONDS every delivery is sent twice, once signed with the old
 * secret and once with the new, so receivers can switch without losing an event. Standard
 * Webhooks signing (either design): for the same overlap each request carries both signatures.
 * Rotating is also the way out after SIGNING_SECRET changed (the old secret can no longer be
 * read), and gives an endpoint made before Standard Webhooks signing a secret in its format.
 */
export async function rotateWebhookSecret(
  { em, services }: Pick<Deps, 'em'> & { services: WebhookAdminServices },
  caller: Caller,
  input: { endpointId: string },
): Promise<z.infer<typeof ZWebhookEndpointWithSecret>> {
  const secret = newWebhookSecret();
  const now = new Date();
  // Locked: of two concurrent rotations, the second takes the first's secret as the previous one,
  // so no caller is left holding a secret that signs nothing.
  const endpoint = await em.transactional(async (tx) => {
    const locked = await loadWebhookEndpoint(tx, caller, input, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const overlap = services.config.webhookRotationOverlapSeconds;
    if (overlapsRotation(locked) && overlap > 0 && canOpen(services, locked.sealedSecret)) {
      locked.sealedPreviousSecret = locked.sealedSecret;
      locked.previousSecretExpiresAt = new Date(now.getTime() + overlap * 1000);
    } else {
      locked.sealedPreviousSecret = null;
      locked.previousSecretExpiresAt = null;
    }
    locked.sealedSecret = services.webhookSecrets.seal(secret);
    locked.secretRotatedAt = now;
    await tx.flush();
    return locked;
  });
  return { ...toWebhookEndpointDto(endpoint), secret };
}
