import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ZWebhookEndpointWithSecret } from '../../../shared/schemas/webhooks.js';
import type { WebhookAdminServices } from './create-webhook-endpoint.js';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';
import { toWebhookEndpointDto } from './serialize.js';
import { newWebhookSecret } from './webhook-secrets.js';

/**
 * `POST /api/webhooks/{endpointId}/rotate-secret`: a new secret, shown once. Design A: it signs
 * everything from now on, retries of earlier events included (the spec: no dual signing). Design
 * B: for WEBHOOK_ROTATION_OVERLAP_SECONDS every delivery is sent twice, once signed with the old
 * secret and once with the new, so receivers can switch without losing an event.
 */
export async function rotateWebhookSecret(
  em: EntityManager,
  services: WebhookAdminServices,
  organizationId: string,
  endpointId: string,
  now: Date = new Date(),
): Promise<z.infer<typeof ZWebhookEndpointWithSecret>> {
  const endpoint = await loadWebhookEndpoint(em, organizationId, endpointId);
  const secret = newWebhookSecret();
  const overlap = services.config.webhookRotationOverlapSeconds;
  if (endpoint.design === 'B' && overlap > 0) {
    endpoint.sealedPreviousSecret = endpoint.sealedSecret;
    endpoint.previousSecretExpiresAt = new Date(now.getTime() + overlap * 1000);
  } else {
    endpoint.sealedPreviousSecret = null;
    endpoint.previousSecretExpiresAt = null;
  }
  endpoint.sealedSecret = services.webhookSecrets.seal(secret);
  endpoint.secretRotatedAt = now;
  await em.flush();
  return { ...toWebhookEndpointDto(endpoint), secret };
}
