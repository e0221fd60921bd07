import { ApiKey, Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { API_KEY_PREFIXES } from '../../lib/api-key-format.js';
import { organizationWorldIds } from '../organizations/index.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/** The caller's organization's keys, live and test, oldest first (revoked ones included). */
export async function listApiKeys({ em }: Pick<Deps, 'em'>, caller: Caller): Promise<ApiKey[]> {
  const organization = await em.findOne(Organization, { id: caller.organizationId });
  if (!organization) throw notFound('organization', caller.organizationId);
  const worlds = await organizationWorldIds(em, { organizationId: caller.organizationId });
  return em.find(ApiKey, { organization: { $in: worlds } }, { orderBy: { createdAt: 'asc', id: 'asc' }, populate: ['organization'] });
}

/** The CLI's view of a key: never the key or its hash. */
export function describeApiKey(apiKey: ApiKey) {
  return {
    id: apiKey.id,
    organizationId: apiKey.organization.id,
    mode: apiKey.keyHint.startsWith(API_KEY_PREFIXES.test) ? ('test' as const) : ('live' as const),
    name: apiKey.name,
    hint: apiKey.keyHint,
    permissions: apiKey.permissions,
    createdAt: apiKey.createdAt.toISOString(),
    lastUsedAt: apiKey.lastUsedAt?.toISOString() ?? null,
    expiresAt: apiKey.expiresAt?.toISOString() ?? null,
    revokedAt: apiKey.revokedAt?.toISOString() ?? null,
  };
}
