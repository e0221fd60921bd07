import type { Permission } from '../../../shared/permissions.js';
import { ApiKey, Organization } from '../../entities/index.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { apiKeyHint, type ApiKeyMode, generateApiKey, hashApiKey } from '../../lib/api-key-format.js';
import { ensureTestOrganization } from '../organizations/index.js';
import { newId } from '../../lib/ids.js';
import type { Caller, CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

export interface CreateApiKeyInput {
  name: string;
  permissions: Permission[];
  expiresAt?: Date | null;
  /** `test`: an `isk_test_` key of the organization's test world (made on first use). Default `live`. */
  mode?: ApiKeyMode;
}

/** A key of the caller's organization. Returns the key value exactly once; only its hash is stored. */
export async function createApiKey({ em }: Pick<Deps, 'em'>, caller: Caller, input: CreateApiKeyInput): Promise<{ apiKey: ApiKey; secret: string }> {
  const mode = input.mode ?? 'live';
  return em.transactional(async (tx) => {
    const live = await tx.findOne(Organization, { id: caller.organizationId });
    if (!live) throw notFound('organization', caller.organizationId);
    // Made in the test world as it is now: its lock holds off a deletion of the test data until the key is in.
    const organization = mode === 'test' ? await ensureTestOrganization({ em: tx }, { organizationId: live.id }) : live;
    const secret = generateApiKey(mode);
    const apiKey = tx.create(ApiKey, {
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
    await tx.flush();
    return { apiKey, secret };
  });
}

/**
 * `apiKeys.create` for a signed-in member: a key never holds a permission its creator lacks
 * (an admin cannot mint billing:write), and an expiry must lie ahead.
 */
export async function createApiKeyAs(
  deps: Pick<Deps, 'em'>,
  caller: CustomerAuth,
  input: { name: string; permissions: Permission[]; expiresAt?: string | undefined; mode?: ApiKeyMode | undefined },
): Promise<{ apiKey: ApiKey; secret: string }> {
  const beyond = input.permissions.filter((permission) => !caller.permissions.includes(permission));
  if (beyond.length > 0) {
    throw new AppError('INSUFFICIENT_PERMISSIONS', `A key cannot hold permissions its creator lacks: ${beyond.join(', ')}.`, { required: beyond[0] });
  }
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= new Date()) throw validationError([{ path: 'expiresAt', message: 'must be in the future' }]);
  return createApiKey(deps, caller, { name: input.name, permissions: [...new Set(input.permissions)], expiresAt, mode: input.mode ?? 'live' });
}
