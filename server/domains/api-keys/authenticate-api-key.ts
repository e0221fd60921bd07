import type { EntityManager } from '@mikro-orm/postgresql';
import { isPermission, type Permission } from '../../../shared/permissions.js';
import { isPlan, type Plan } from '../../../shared/plans.js';
import { hashApiKey, isWellFormedApiKey } from '../../lib/api-key-format.js';

export interface AuthenticatedKey {
  apiKeyId: string;
  organizationId: string;
  permissions: Permission[];
  plan: Plan;
  customRateLimit: number | null;
}

/**
 * Resolves a presented key in one round trip (and refreshes `lastUsedAt` at most once a minute
 * in the same statement). Anything malformed, unknown, expired or revoked is undefined.
 */
export async function authenticateApiKey(em: EntityManager, presented: string): Promise<AuthenticatedKey | undefined> {
  if (!isWellFormedApiKey(presented)) return undefined;
  const rows = await em.execute<
    { id: string; organization_id: string; permissions: string[]; plan: string; rate_limit_per_minute: number | null }[]
  >(
    `with found as (
       select k.id, k.organization_id, k.permissions, o.plan, o.rate_limit_per_minute
       from api_keys k join organizations o on o.id = k.organization_id
       where k.key_hash = ? and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
     ), touched as (
       update api_keys set last_used_at = now()
       where id in (select id from found) and (last_used_at is null or last_used_at < now() - interval '1 minute')
     )
     select * from found`,
    [hashApiKey(presented)],
  );
  const row = rows[0];
  if (!row || !isPlan(row.plan)) return undefined;
  return {
    apiKeyId: row.id,
    organizationId: row.organization_id,
    permissions: row.permissions.filter(isPermission),
    plan: row.plan,
    customRateLimit: row.rate_limit_per_minute,
  };
}
