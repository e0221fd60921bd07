import { defineQuery } from '../../db/query.js';
import { sql } from '../../db/sql.js';

/**
 * An organization's test world made once: a copy of its name, plan, logo and settings, no
 * credits, no domain. Concurrent first uses make one (the unique `live_organization_id`); the
 * loser's insert does nothing and both read the same row.
 */
export const insertTestOrganization = defineQuery({
  columns: { id: 'text' },
  statement: ({ testOrganizationId, liveOrganizationId }: { testOrganizationId: string; liveOrganizationId: string }) =>
    sql`insert into organizations (id, name, plan, rate_limit_per_minute, credit_balance, credits_held, credits_owed, logo, domain, settings,
                                   current_period_start, payment_customer_id, live_organization_id, created_at, updated_at)
        select ${testOrganizationId}, o.name, o.plan, o.rate_limit_per_minute, 0, 0, 0, o.logo, null, o.settings,
               o.current_period_start, null, o.id, now(), now()
          from organizations o where o.id = ${liveOrganizationId} and o.live_organization_id is null
        on conflict (live_organization_id) do nothing
        returning id`,
  example: { testOrganizationId: 'org_example_test', liveOrganizationId: 'org_example' },
});

/**
 * An organization's test world, share-locked until the caller's transaction ends, so a deletion of
 * the test data (which replaces the world) cannot remove it while a key is made in it.
 */
export const shareLockTestWorld = defineQuery({
  columns: { id: 'text' },
  statement: ({ liveOrganizationId }: { liveOrganizationId: string }) =>
    sql`select id from organizations where live_organization_id = ${liveOrganizationId} for share`,
  example: { liveOrganizationId: 'org_example' },
});

/** The id of an organization's test world, when it has one. */
export const testOrganizationIdOf = defineQuery({
  columns: { id: 'text' },
  statement: ({ liveOrganizationId }: { liveOrganizationId: string }) => sql`select id from organizations where live_organization_id = ${liveOrganizationId}`,
  example: { liveOrganizationId: 'org_example' },
});

/**
 * What the test world mirrors of its live organization, copied again after the live one changes
 * (its name, logo, plan, rate limit and settings), so a test interview looks and behaves as a live
 * one will.
 */
export const mirrorIntoTestOrganization = defineQuery({
  columns: { id: 'text' },
  statement: ({ liveOrganizationId }: { liveOrganizationId: string }) =>
    sql`update organizations t set name = o.name, logo = o.logo, plan = o.plan, rate_limit_per_minute = o.rate_limit_per_minute, settings = o.settings, updated_at = now()
          from organizations o where o.id = ${liveOrganizationId} and t.live_organization_id = o.id
        returning t.id`,
  example: { liveOrganizationId: 'org_example' },
});

/** The test world of an organization, or the organization itself when it is one, locked for the deletion of its data. */
export const lockTestWorld = defineQuery({
  columns: { id: 'text', live_organization_id: 'text' },
  statement: ({ organizationId }: { organizationId: string }) =>
    sql`select id, live_organization_id from organizations
         where (id = ${organizationId} and live_organization_id is not null) or live_organization_id = ${organizationId}
         for update`,
  example: { organizationId: 'org_example' },
});

/** What a deletion of test data removes, counted before it does. */
export const testWorldCounts = defineQuery({
  columns: { campaigns: 'integer', invites: 'integer', sessions: 'integer', events: 'integer' },
  statement: ({ organizationId }: { organizationId: string }) =>
    sql`select (select count(*)::integer from campaigns where organization_id = ${organizationId} and not preview) as campaigns,
               (select count(*)::integer from invites i join campaigns c on c.id = i.campaign_id where i.organization_id = ${organizationId} and not c.preview) as invites,
               (select count(*)::integer from sessions where organization_id = ${organizationId} and not preview) as sessions,
               (select count(*)::integer from webhook_events where organization_id = ${organizationId}) as events`,
  example: { organizationId: 'org_example' },
});

/** The old test world detached from its live organization, so a new one can take its place (`live_organization_id` is unique). */
export const detachTestWorld = defineQuery({
  columns: { id: 'text' },
  statement: ({ worldId }: { worldId: string }) => sql`update organizations set live_organization_id = null where id = ${worldId} returning id`,
  example: { worldId: 'org_example_test' },
});

/** A test world's setup, its API keys and webhook endpoints (ids, hashes and sealed secrets unchanged), moved to the world replacing it. */
export const moveTestWorldSetup = defineQuery({
  columns: { id: 'text' },
  statement: ({ fromWorldId, toWorldId }: { fromWorldId: string; toWorldId: string }) =>
    sql`with keys as (
       update api_keys set organization_id = ${toWorldId} where organization_id = ${fromWorldId} returning id
     ), endpoints as (
       update webhook_endpoints set organization_id = ${toWorldId}, updated_at = now() where organization_id = ${fromWorldId} returning id
     )
     select id from keys union all select id from endpoints`,
  example: { fromWorldId: 'org_example_test', toWorldId: 'org_example_test2' },
});

/**
 * A detached test world deleted with everything it held: every organization-owned table cascades.
 * Its campaigns first, in their own statement: a campaign's script is `on delete restrict`.
 */
export const deleteCampaignsOf = defineQuery({
  columns: { id: 'text' },
  statement: ({ worldId }: { worldId: string }) => sql`delete from campaigns where organization_id = ${worldId} returning id`,
  example: { worldId: 'org_example_test' },
});

export const deleteDetachedWorld = defineQuery({
  columns: { id: 'text' },
  statement: ({ worldId }: { worldId: string }) =>
    sql`delete from organizations where id = ${worldId} and live_organization_id is null
          and not exists (select 1 from members where organization_id = ${worldId}) returning id`,
  example: { worldId: 'org_example_test' },
});
