import { STAKEHOLDER_LINK_LIMITS } from '../../../shared/schemas/stakeholder-links.js';
import { defineQuery } from '../../db/query.js';
import { isoTimestamp, rawSql, sql } from '../../db/sql.js';

/**
 * The columns of a link row from `l` (stakeholder_links): the target's name read now (null once it
 * is deleted; a preview campaign or session is never a target), expiry judged by the database's clock.
 */
export const LINK_COLUMNS = rawSql(
  `l.id, l.kind, l.target_id,
   case l.kind
     when 'campaign' then (select c.name from campaigns c where c.id = l.target_id and c.organization_id = l.organization_id)
     when 'collection' then (select col.name from collections col where col.id = l.target_id and col.organization_id = l.organization_id)
     else (select c.name from sessions s join campaigns c on c.id = s.campaign_id where s.id = l.target_id and s.organization_id = l.organization_id)
   end as target_name,
   l.include_transcripts, l.redact_pii, l.created_by_kind, l.created_by_id, l.created_by_name,
   ${isoTimestamp('l.created_at')} as created_at, ${isoTimestamp('l.expires_at')} as expires_at, ${isoTimestamp('l.revoked_at')} as revoked_at,
   l.expires_at <= now() as expired, l.open_count, ${isoTimestamp('l.last_opened_at')} as last_opened_at, l.created_at::text as sort_value`,
);

/** The link a token's hash finds, with its organization's name, whether it still works and whether its target still exists. */
export const linkByTokenHash = defineQuery({
  columns: {
    id: 'text',
    organization_id: 'text',
    organization_name: 'text',
    kind: 'text',
    target_id: 'text',
    include_transcripts: 'boolean',
    redact_pii: 'boolean',
    expires_at: 'text',
    revoked: 'boolean',
    expired: 'boolean',
    target_exists: 'boolean',
  },
  statement: ({ tokenHash }: { tokenHash: string }) =>
    sql`select l.id, l.organization_id, o.name as organization_name, l.kind, l.target_id, l.include_transcripts, l.redact_pii,
               ${rawSql(isoTimestamp('l.expires_at'))} as expires_at, l.revoked_at is not null as revoked, l.expires_at <= now() as expired,
               case l.kind
                 when 'campaign' then exists (select 1 from campaigns c where c.id = l.target_id and c.organization_id = l.organization_id and not c.preview)
                 when 'collection' then exists (select 1 from collections col where col.id = l.target_id and col.organization_id = l.organization_id)
                 else exists (select 1 from sessions s where s.id = l.target_id and s.organization_id = l.organization_id and not s.preview)
               end as target_exists
          from stakeholder_links l join organizations o on o.id = l.organization_id
         where l.token_hash = ${tokenHash}`,
  example: { tokenHash: 'ab' },
});

/** One read recorded, if the link still works (no row: revoked or expired meanwhile). */
export const recordLinkOpen = defineQuery({
  columns: { id: 'text' },
  statement: ({ linkId }: { linkId: string }) =>
    sql`with touched as (
          update stakeholder_links set open_count = open_count + 1, last_opened_at = now()
          where id = ${linkId} and revoked_at is null and expires_at > now()
          returning id)
        insert into stakeholder_link_opens (link_id, opened_at) select id, now() from touched returning link_id as id`,
  example: { linkId: 'shl_example' },
});

/** The organization's link: its kind and how often it was opened. */
export const linkKindAndOpens = defineQuery({
  columns: { kind: 'text', open_count: 'integer' },
  statement: ({ organizationId, linkId }: { organizationId: string; linkId: string }) =>
    sql`select kind, open_count from stakeholder_links where id = ${linkId} and organization_id = ${organizationId}`,
  example: { organizationId: 'org_example', linkId: 'shl_example' },
});

/** A link's newest reads. */
export const linkOpens = defineQuery({
  columns: { opened_at: 'text' },
  statement: ({ linkId }: { linkId: string }) =>
    sql`select ${rawSql(isoTimestamp('opened_at'))} as opened_at from stakeholder_link_opens where link_id = ${linkId}
        order by opened_at desc, id desc limit ${STAKEHOLDER_LINK_LIMITS.maxOpensListed}`,
  example: { linkId: 'shl_example' },
});

/** Revokes the organization's link (revoking again keeps the first time). */
export const revokeLink = defineQuery({
  columns: {
    id: 'text',
    kind: 'text',
    target_id: 'text',
    target_name: 'text | null',
    include_transcripts: 'boolean',
    redact_pii: 'boolean',
    created_by_kind: 'text',
    created_by_id: 'text',
    created_by_name: 'text',
    created_at: 'text',
    expires_at: 'text',
    revoked_at: 'text | null',
    expired: 'boolean',
    open_count: 'integer',
    last_opened_at: 'text | null',
    sort_value: 'text',
  },
  statement: ({ organizationId, linkId }: { organizationId: string; linkId: string }) =>
    sql`with l as (
          update stakeholder_links set revoked_at = coalesce(revoked_at, now())
          where id = ${linkId} and organization_id = ${organizationId}
          returning *)
        select ${LINK_COLUMNS} from l`,
  example: { organizationId: 'org_example', linkId: 'shl_example' },
});

/** Each kind of target of the organization, by id (a preview campaign or session is none). */
export const campaignTarget = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, id }: { organizationId: string; id: string }) =>
    sql`select id from campaigns where id = ${id} and organization_id = ${organizationId} and not preview`,
  example: { organizationId: 'org_example', id: 'cmp_example' },
});

export const collectionTarget = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, id }: { organizationId: string; id: string }) => sql`select id from collections where id = ${id} and organization_id = ${organizationId}`,
  example: { organizationId: 'org_example', id: 'col_example' },
});

export const sessionTarget = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, id }: { organizationId: string; id: string }) =>
    sql`select id from sessions where id = ${id} and organization_id = ${organizationId} and not preview`,
  example: { organizationId: 'org_example', id: 'ses_example' },
});
