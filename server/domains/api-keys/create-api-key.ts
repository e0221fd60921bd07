import type { EntityManager } from '@mikro-orm/postgresql';
import type { Permission } from '../../../shared/permissions.js';
import { ApiKey, Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { apiKeyHint, generateApiKey, hashApiKey } from '../../lib/api-key-format.js';
import { newId } from '../../lib/ids.js';

export interface CreateApiKeyInput {
  organizationId: string;
  name: string;
  permissions: Permission[];
  expiresAt?: Date | null;
}

/** Returns the key value exactly once; only its hash is stored. */
export async function createApiKey(em: EntityManager, input: CreateApiKeyInput): Promise<{ apiKey: ApiKey; secret: string }> {
  const organization = await em.findOne(Organization, { id: input.organizationId });
  if (!organization) throw notFound('organization', input.organizationId);
  const secret = generateApiKey();
  const apiKey = em.create(ApiKey, {
    id: newId('key'),
    organization,
    name: input.name,
    keyHash: hashApiKey(secret),
    keyHint: apiKeyHint(secret),
    permissions: input.permissions,
    lastUsedAt: null,
    expiresAt: input.expiresAt ?? null,
    revokedAt: null,
  });
  await em.flush();
  return { apiKey, secret };
}
