import type { TUpdateWebhookInput, TWebhookEndpoint } from '../../../shared/schemas/webhooks.js';
import { STANDARD_WEBHOOK_SECRET } from '../../../shared/webhook-signatures.js';
import { validationError } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { WebhookAdminServices } from './webhook-services.js';
import { deliverableUrl } from './endpoint-url.js';
import { loadWebhookEndpoint } from './load-webhook-endpoint.js';
import { toWebhookEndpointDto } from './serialize.js';
import { overlapsRotation } from './webhook-secrets.js';

/** Whether the secret can key Standard Webhooks (one sealed under another SIGNING_SECRET cannot sign at all: rotate it too). */
function secretFitsStandardWebhooks(services: Pick<WebhookAdminServices, 'webhookSecrets'>, sealedSecret: string): boolean {
  try {
    return STANDARD_WEBHOOK_SECRET.test(services.webhookSecrets.open(sealedSecret));
  } catch {
    return false;
  }
}

/**
 * `PATCH /api/webhooks/{endpointId}`: url, events, design, signature scheme, description, status.
 * Disabling stops deliveries (those waiting fail at their next attempt); enabling re-enables an
 * endpoint, one disabled by a 410 Gone included.
 */
export async function updateWebhookEndpoint(
  { em, services }: Pick<Deps, 'em'> & { services: Pick<WebhookAdminServices, 'outboundPolicy' | 'webhookSecrets'> },
  caller: Caller,
  input: TUpdateWebhookInput,
): Promise<TWebhookEndpoint> {
  const endpoint = await loadWebhookEndpoint(em, caller, input);
  if (input.url !== undefined && input.url !== endpoint.url) endpoint.url = await deliverableUrl(input.url, services.outboundPolicy);
  if (input.events !== undefined) endpoint.events = input.events;
  if (input.design !== undefined) endpoint.design = input.design;
  if (input.signatureScheme === 'standard_webhooks' && endpoint.signatureScheme !== 'standard_webhooks') {
    // Secrets made before Standard Webhooks signing are base64url, which its libraries cannot
    // decode: the switch would leave the receiver unable to verify anything.
    if (!secretFitsStandardWebhooks(services, endpoint.sealedSecret)) {
      throw validationError([
        {
          path: 'signatureScheme',
          message: `this endpoint's secret predates Standard Webhooks signing and is not in its format: rotate the secret (POST /api/webhooks/${endpoint.id}/rotate-secret), then switch`,
        },
      ]);
    }
  }
  if (input.signatureScheme !== undefined) endpoint.signatureScheme = input.signatureScheme;
  // Signing that keeps no overlap (Design A's own) drops the old secret at once: the endpoint must
  // not say it still signs.
  if (!overlapsRotation(endpoint)) {
    endpoint.sealedPreviousSecret = null;
    endpoint.previousSecretExpiresAt = null;
  }
  if (input.description !== undefined) endpoint.description = input.description;
  if (input.status !== undefined && input.status !== endpoint.status) {
    endpoint.status = input.status;
    endpoint.disabledReason = input.status === 'disabled' ? 'manual' : null;
  }
  await em.flush();
  return toWebhookEndpointDto(endpoint);
}
