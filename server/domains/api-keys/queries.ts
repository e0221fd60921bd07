import { defineQuery } from '../../db/query.js';
import { sql } from '../../db/sql.js';

/**
 * A presented key's row by its hash, with its organization's plan and rate limit, when it is
 * neither revoked nor expired; the same statement refreshes `last_used_at` at most once a minute.
 */
export const usableApiKeyByHash = defineQuery({
  columns: { id: 'text', organization_id: 'text', permissions: 'jsonb', plan: 'text', rate_limit_per_minute: 'integer | null', livemode: 'boolean' },
  statement: ({ keyHash }: { keyHash: string }) =>
    sql`with found as (
       select k.id, k.organization_id, k.permissions, o.plan, o.rate_limit_per_minute, o.live_organization_id is null as livemode
       from api_keys k join organizations o on o.id = k.organization_id
       where k.key_hash = ${keyHash} and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
     ), touched as (
       update api_keys set last_used_at = now()
       where id in (select id from found) and (last_used_at is null or last_used_at < now() - interval '1 minute')
     )
     select * from found`,
  example: { keyHash: 'example-hash' },
});

/**
 * Whether a key is still neither revoked nor expired, and still of the organization it acted for
 * (a test key moves to a new test world when the test data is deleted): a long answer (the event
 * stream) asks again as it goes.
 */
export const apiKeyStillUsable = defineQuery({
  columns: { id: 'text' },
  statement: ({ apiKeyId, organizationId }: { apiKeyId: string; organizationId: string }) =>
    sql`select id from api_keys where id = ${apiKeyId} and organization_id = ${organizationId} and revoked_at is null and (expires_at is null or expires_at > now())`,
  example: { apiKeyId: 'key_example', organizationId: 'org_example' },
});
