import type { z } from 'zod';
import type { TCreateWebhookInput, ZWebhookEndpointWithSecret } from '../../../shared/schemas/webhooks.js';
import { WebhookEndpoint } from '../../entities/index.js';
import { newId } from '../../lib/ids.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { deliverableUrl } from './endpoint-url.js';
import { toWebhookEndpointDto } from './serialize.js';
import { newWebhookSecret } from './webhook-secrets.js';
import type { WebhookAdminServices } from './webhook-services.js';

/** `POST /api/webhooks`: a new endpoint, its signing secret in this answer only. */
export async function createWebhookEndpoint(
  { em, services }: Pick<Deps, 'em'> & { services: WebhookAdminServices },
  caller: Caller,
  input: TCreateWebhookInput,
): Promise<z.infer<typeof ZWebhookEndpointWithSecret>> {
  const url = await deliverableUrl(input.url, services.outboundPolicy);
  const secret = newWebhookSecret();
  const endpoint = em.create(WebhookEndpoint, {
    id: newId('whe'),
    organization: caller.organizationId,
    url,
    events: input.events,
    design: input.design ?? services.config.webhookDesign,
    signatureScheme: input.signatureScheme ?? 'design',
    description: input.description ?? null,
    status: 'enabled',
    disabledReason: null,
    sealedSecret: services.webhookSecrets.seal(secret),
    sealedPreviousSecret: null,
    previousSecretExpiresAt: null,
    secretRotatedAt: null,
  });
  await em.flush();
  return { ...toWebhookEndpointDto(endpoint), secret };
}
