import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TWebhookEndpoint } from '../../../shared/schemas/webhooks.js';
import { WebhookEndpoint } from '../../entities/index.js';
import { pageOf } from '../pagination.js';
import { toWebhookEndpointDto } from './serialize.js';

/** `GET /api/webhooks`: the organization's endpoints, newest first. */
export async function listWebhookEndpoints(em: EntityManager, organizationId: string, input: { limit: number; offset: number }): Promise<Page<TWebhookEndpoint>> {
  const [endpoints, total] = await em.findAndCount(
    WebhookEndpoint,
    { organization: organizationId },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: input.limit, offset: input.offset, disableIdentityMap: true },
  );
  return pageOf(endpoints.map(toWebhookEndpointDto), total, input.limit, input.offset);
}
