import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookEndpoint } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { OrganizationScope } from '../common/caller.js';

/** The organization's endpoint or 404 (another organization's included). */
export async function loadWebhookEndpoint(
  em: EntityManager,
  scope: OrganizationScope,
  input: { endpointId: string },
  options: { lockMode?: LockMode } = {},
): Promise<WebhookEndpoint> {
  const { endpointId } = input;
  const endpoint = await em.findOne(
    WebhookEndpoint,
    { id: endpointId, organization: scope.organizationId },
    options.lockMode ? { lockMode: options.lockMode, refresh: true } : {},
  );
  if (!endpoint) throw notFound('webhookEndpoint', endpointId);
  return endpoint;
}
