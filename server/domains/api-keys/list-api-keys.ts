import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey, Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';

export async function listApiKeys(em: EntityManager, organizationId: string): Promise<ApiKey[]> {
  const organization = await em.findOne(Organization, { id: organizationId });
  if (!organization) throw notFound('organization', organizationId);
  return em.find(ApiKey, { organization: organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** The CLI's view of a key: never the key or its hash. */
export function describeApiKey(apiKey: ApiKey) {
  return {
    id: apiKey.id,
    organizationId: apiKey.organization.id,
    name: apiKey.name,
    hint: apiKey.keyHint,
    permissions: apiKey.permissions,
    createdAt: apiKey.createdAt.toISOString(),
    lastUsedAt: apiKey.lastUsedAt?.toISOString() ?? null,
    expiresAt: apiKey.expiresAt?.toISOString() ?? null,
    revokedAt: apiKey.revokedAt?.toISOString() ?? null,
  };
}
