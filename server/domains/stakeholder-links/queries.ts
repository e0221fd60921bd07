import { STAKEHOLDER_LINK_LIMITS } from '../../../shared/schemas/stakeholder-links.js';
import { defineQuery } from '../../db/query.js';
import { isoTimestamp, rawSql, type Sql, sql } from '../../db/sql.js';
import { IDENTITY_COLUMNS } from '../anonymized-exports/index.js';

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
  statement: ({ organizationId, id }: { organizationId: string; id: string }) =>
    sql`select id from collections where id = ${id} and organization_id = ${organizationId}`,
  example: { organizationId: 'org_example', id: 'col_example' },
});

export const sessionTarget = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, id }: { organizationId: string; id: string }) =>
    sql`select id from sessions where id = ${id} and organization_id = ${organizationId} and not preview`,
  example: { organizationId: 'org_example', id: 'ses_example' },
});

/** The organization's links `where` keeps (on `l`), `tail` ordering and limiting them. */
export const links = defineQuery({
  columns: revokeLink.columns,
  statement: ({ organizationId, where, tail }: { organizationId: string; where: Sql; tail: Sql }) =>
    sql`select ${LINK_COLUMNS} from stakeholder_links l where l.organization_id = ${organizationId} and ${where} ${tail}`,
  example: { organizationId: 'org_example', where: sql`l.id = ${'shl_example'}`, tail: sql`order by l.created_at desc, l.id desc limit ${21}` },
});

/** The identity columns of a session (`s`) and its invite (`i`), as the scrubber reads them (anonymized-exports IDENTITY_COLUMNS). */
const identityColumns = {
  participant_email: 'text | null',
  participant_name: 'text | null',
  metadata: 'jsonb | null',
  invite_email: 'text | null',
  invite_name: 'text | null',
  invite_metadata: 'jsonb | null',
} as const;

/** The organization's sessions `where` keeps (on `s`), newest first, never a preview one, with what a stakeholder sees of them. */
export const sharedSessionRows = defineQuery({
  columns: {
    id: 'text',
    campaign_id: 'text',
    campaign_name: 'text',
    status: 'text',
    completion_status: 'text | null',
    language: 'text',
    started_at: 'text | null',
    duration_seconds: 'integer',
    answers: 'jsonb',
    script_id: 'text',
    script_version: 'integer',
    transcript_status: 'text | null',
    ...identityColumns,
  },
  statement: ({ organizationId, where, limit }: { organizationId: string; where: Sql; limit: number }) =>
    sql`select s.id, s.campaign_id, c.name as campaign_name, s.status, s.completion_status, s.language, ${rawSql(isoTimestamp('s.started_at'))} as started_at,
               s.duration_seconds, s.answers, s.script_id, s.script_version, s.transcript_status, ${IDENTITY_COLUMNS}
          from sessions s join campaigns c on c.id = s.campaign_id left join invites i on i.id = s.invite_id
         where s.organization_id = ${organizationId} and not s.preview and ${where}
         order by s.created_at desc, s.id desc limit ${limit}`,
  example: { organizationId: 'org_example', where: sql`s.id = ${'ses_example'}`, limit: 1 },
});

/**
 * Of the wanted metadata entries (campaign, key, value), those at least two participants of the
 * campaign hold. A participant is an email address (two sessions of the same person are one), or
 * else an invite; preview sessions are never counted.
 */
export const sharedMetadataEntries = defineQuery({
  columns: { campaign_id: 'text', key: 'text', value: 'text' },
  statement: ({ organizationId, wanted }: { organizationId: string; wanted: { campaign_id: string; key: string; value: string }[] }) =>
    sql`with wanted as (select * from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as w(campaign_id text, key text, value text)),
               held as (
                 select s.campaign_id, coalesce(lower(coalesce(s.participant_email, i.email)), s.invite_id) as participant, m.key, m.value
                   from sessions s left join invites i on i.id = s.invite_id
                  cross join lateral (select * from jsonb_each_text(s.metadata) union select * from jsonb_each_text(coalesce(i.metadata, '{}'::jsonb))) as m(key, value)
                  where s.organization_id = ${organizationId} and not s.preview and s.campaign_id in (select campaign_id from wanted)
               )
          select h.campaign_id, h.key, h.value
            from held h join wanted w on w.campaign_id = h.campaign_id and w.key = h.key and w.value = h.value
           group by h.campaign_id, h.key, h.value
          having count(distinct h.participant) > 1`,
  example: { organizationId: 'org_example', wanted: [{ campaign_id: 'cmp_example', key: 'team', value: 'Sales' }] },
});

/** A shared campaign's name. */
export const sharedCampaignName = defineQuery({
  columns: { name: 'text' },
  statement: ({ organizationId, campaignId }: { organizationId: string; campaignId: string }) =>
    sql`select name from campaigns where id = ${campaignId} and organization_id = ${organizationId}`,
  example: { organizationId: 'org_example', campaignId: 'cmp_example' },
});

/** A shared collection's name and description. */
export const sharedCollectionHeader = defineQuery({
  columns: { name: 'text', description: 'text | null' },
  statement: ({ organizationId, collectionId }: { organizationId: string; collectionId: string }) =>
    sql`select name, description from collections where id = ${collectionId} and organization_id = ${organizationId}`,
  example: { organizationId: 'org_example', collectionId: 'col_example' },
});

/** A shared collection's quotes in the order they were added, never of a preview session, with their answer, campaign and session identity. */
export const sharedCollectionItems = defineQuery({
  columns: {
    session_id: 'text',
    utterance_text: 'text',
    start_offset: 'integer',
    end_offset: 'integer',
    speaker: 'text',
    start_time: 'double precision',
    question_id: 'text | null',
    label: 'text | null',
    highlight_note: 'text | null',
    item_note: 'text | null',
    campaign_id: 'text',
    campaign_name: 'text',
    script_id: 'text',
    script_version: 'integer',
    ...identityColumns,
  },
  statement: ({ organizationId, collectionId, limit }: { organizationId: string; collectionId: string; limit: number }) =>
    sql`select h.session_id, u.text as utterance_text, h.start_offset, h.end_offset, u.speaker, u.start_time, u.question_id, h.label,
               h.note as highlight_note, ci.note as item_note, s.campaign_id, c.name as campaign_name, s.script_id, s.script_version, ${IDENTITY_COLUMNS}
          from collection_items ci
          join highlights h on h.id = ci.highlight_id
          join session_utterances u on u.id = h.utterance_id
          join sessions s on s.id = h.session_id
          join campaigns c on c.id = s.campaign_id
          left join invites i on i.id = s.invite_id
         where ci.collection_id = ${collectionId} and ci.organization_id = ${organizationId} and not s.preview
         order by ci.position limit ${limit}`,
  example: { organizationId: 'org_example', collectionId: 'col_example', limit: 200 },
});
