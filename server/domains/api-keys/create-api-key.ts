import type { Permission } from '../../../shared/permissions.js';
import { ApiKey, Organization } from '../../entities/index.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { apiKeyHint, generateApiKey, hashApiKey } from '../../lib/api-key-format.js';
import { newId } from '../../lib/ids.js';
import type { Caller, CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

export interface CreateApiKeyInput {
  name: string;
  permissions: Permission[];
  expiresAt?: Date | null;
}

/** A key of the caller's organization. Returns the key value exactly once; only its hash is stored. */
export async function createApiKey({ em }: Pick<Deps, 'em'>, caller: Caller, input: CreateApiKeyInput): Promise<{ apiKey: ApiKey; secret: string }> {
  const organization = await em.findOne(Organization, { id: caller.organizationId });
  if (!organization) throw notFound('organization', caller.organizationId);
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

/**
 * `apiKeys.create` for a signed-in member: a key never holds a permission its creator lacks
 * (an admin cannot mint billing:write), and an expiry must lie ahead.
 */
export async function createApiKeyAs(
  deps: Pick<Deps, 'em'>,
  caller: CustomerAuth,
  input: { name: string; permissions: Permission[]; expiresAt?: string | undefined },
): Promise<{ apiKey: ApiKey; secret: string }> {
  const beyond = input.permissions.filter((permission) => !caller.permissions.includes(permission));
  if (beyond.length > 0) {
    throw new AppError('INSUFFICIENT_PERMISSIONS', `A key cannot hold permissions its creator lacks: ${beyond.join(', ')}.`, { required: beyond[0] });
  }
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= new Date()) throw validationError([{ path: 'expiresAt', message: 'must be in the future' }]);
  return createApiKey(deps, caller, { name: input.name, permissions: [...new Set(input.permissions)], expiresAt });
}
