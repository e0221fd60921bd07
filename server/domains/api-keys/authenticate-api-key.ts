import { isPermission, type Permission } from '../../../shared/permissions.js';
import { isPlan, type Plan } from '../../../shared/plans.js';
import { hashApiKey, isWellFormedApiKey } from '../../lib/api-key-format.js';
import type { Deps } from '../common/deps.js';
import { apiKeyStillUsable, usableApiKeyByHash } from './queries.js';

export interface AuthenticatedKey {
  apiKeyId: string;
  organizationId: string;
  permissions: Permission[];
  plan: Plan;
  customRateLimit: number | null;
  /** False for an `isk_test_` key: it acts in its organization's test world. */
  livemode: boolean;
}

/**
 * Resolves a presented key in one round trip (and refreshes `lastUsedAt` at most once a minute
 * in the same statement). Anything malformed, unknown, expired or revoked is undefined.
 * There is no caller yet: this is how the HTTP edge finds one.
 */
export async function authenticateApiKey({ em }: Pick<Deps, 'em'>, input: { presentedKey: string }): Promise<AuthenticatedKey | undefined> {
  if (!isWellFormedApiKey(input.presentedKey)) return undefined;
  const row = await usableApiKeyByHash.first(em, { keyHash: hashApiKey(input.presentedKey) });
  if (!row || !isPlan(row.plan)) return undefined;
  return {
    apiKeyId: row.id,
    organizationId: row.organization_id,
    permissions: (row.permissions as string[]).filter(isPermission),
    plan: row.plan,
    customRateLimit: row.rate_limit_per_minute,
    livemode: row.livemode,
  };
}

/**
 * Whether a key authenticated earlier is still neither revoked nor expired, and still acts for the
 * same organization (a test key moves to a new test world when the test data is deleted): a long
 * answer (the event stream) asks again as it goes.
 */
export async function isApiKeyStillUsable({ em }: Pick<Deps, 'em'>, input: { apiKeyId: string; organizationId: string }): Promise<boolean> {
  return (await apiKeyStillUsable.first(em, input)) !== undefined;
}
