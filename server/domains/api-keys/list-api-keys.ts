import { ApiKey, Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/** The caller's organization's keys, oldest first (revoked ones included). */
export async function listApiKeys({ em }: Pick<Deps, 'em'>, caller: Caller): Promise<ApiKey[]> {
  const organization = await em.findOne(Organization, { id: caller.organizationId });
  if (!organization) throw notFound('organization', caller.organizationId);
  return em.find(ApiKey, { organization: caller.organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
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
