import { defineQuery } from '../../db/query.js';
import { isoTimestamp, rawSql, type Sql, sql } from '../../db/sql.js';
import type { TInviteStatus } from '../../../shared/schemas/invites.js';
import type { JobSpec } from '../../jobs/add-jobs.js';
import { addJobsSql } from '../../jobs/queries.js';

/** Respondents of share links: invites started through each link. */
export const respondentsByShareLink = defineQuery({
  columns: { share_link_id: 'text', respondents: 'bigint' },
  statement: ({ shareLinkIds }: { shareLinkIds: string[] }) =>
    sql`select share_link_id, count(*) as respondents from invites
     where share_link_id = any(${shareLinkIds}::text[]) and started_at is not null group by share_link_id`,
  example: { shareLinkIds: ['shl_example'] },
});

/** The periodic job: `expired` on pending and started invites whose expiresAt has passed. */
export const expireOverdueInvites = defineQuery({
  columns: { id: 'text' },
  statement: (_params: Record<string, never>) =>
    sql`update invites set status = 'expired', updated_at = now()
     where status in ('pending', 'started') and expires_at <= now()
     returning id`,
  example: {},
});

/** What a participant's authentication needs of their invite: one indexed row, nothing joined. */
export const inviteCredentialByTokenHash = defineQuery({
  columns: { id: 'text', organization_id: 'text', status: 'text', via_share_link: 'boolean', livemode: 'boolean' },
  statement: ({ tokenHash }: { tokenHash: string }) =>
    sql`select i.id, i.organization_id, i.status, i.share_link_id is not null as via_share_link, o.live_organization_id is null as livemode
          from invites i join organizations o on o.id = i.organization_id where i.token_hash = ${tokenHash}`,
  example: { tokenHash: 'example' },
});

export const inviteCampaignId = defineQuery({
  columns: { campaign_id: 'text' },
  statement: ({ organizationId, inviteId }: { organizationId: string; inviteId: string }) =>
    sql`select campaign_id from invites where id = ${inviteId} and organization_id = ${organizationId}`,
  example: { organizationId: 'org_example', inviteId: 'inv_example' },
});

/** The language, voice and turn-taking of the version an invite runs (its own, else the published one). */
export const inviteVersionSettings = defineQuery({
  columns: { language: 'text | null', voice: 'text | null', turn_taking: 'jsonb | null' },
  statement: ({ scriptId, version }: { scriptId: string; version: number | null }) =>
    sql`select v.settings->>'language' as language, v.settings->>'voice' as voice, v.settings->'turnTaking' as turn_taking
       from scripts s join script_versions v on v.script_id = s.id and v.version = coalesce(${version}::integer, s.published_version)
      where s.id = ${scriptId}`,
  example: { scriptId: 'scr_example', version: 1 as number | null },
});

/** What an email job records when it does not deliver: not sent, bounced or failed (with the reason), or only the reason of a retry. */
export type InviteEmailRecord = { status: 'not_sent' } | { status: 'bounced' | 'failed'; error: string } | { status: null; error: string };

/**
 * Records an email job's outcome, only for the request it serves (email_queued_at): a resend
 * made meanwhile is a new request with its own job, and this one must not overwrite it.
 */
export const recordInviteEmailOutcome = defineQuery({
  columns: { id: 'text' },
  statement: ({ inviteId, queuedAt, outcome }: { inviteId: string; queuedAt: Date | null; outcome: InviteEmailRecord }) => {
    const values =
      outcome.status === 'not_sent'
        ? sql`email_status = 'not_sent'`
        : outcome.status === null
          ? sql`email_error = ${outcome.error}`
          : sql`email_status = ${outcome.status}, email_error = ${outcome.error}`;
    return sql`update invites set ${values}, updated_at = now()
       where id = ${inviteId} and email_status = 'queued' and email_queued_at is not distinct from ${queuedAt} returning id`;
  },
  example: {
    inviteId: 'inv_example',
    queuedAt: new Date('2026-11-01T00:00:00Z') as Date | null,
    outcome: { status: 'failed', error: 'example' } as InviteEmailRecord,
  },
});

/** Delivered is a fact: recorded even when the invite was cancelled during the send, but never over a newer request. */
export const recordInviteEmailSent = defineQuery({
  columns: { id: 'text' },
  statement: ({ inviteId, queuedAt }: { inviteId: string; queuedAt: Date | null }) =>
    sql`update invites set email_status = 'sent', email_sent_at = now(), email_error = null, updated_at = now()
     where id = ${inviteId} and email_status in ('queued', 'not_sent') and email_queued_at is not distinct from ${queuedAt} returning id`,
  example: { inviteId: 'inv_example', queuedAt: new Date('2026-11-01T00:00:00Z') as Date | null },
});

/** The campaign invites are created for (not a preview one) and the organization's custom domain, in one read. */
export const inviteCampaignWithDomain = defineQuery({
  columns: { id: 'text', status: 'text', invite_defaults: 'jsonb', domain: 'text | null' },
  statement: ({ organizationId, campaignId }: { organizationId: string; campaignId: string }) =>
    sql`select c.id, c.status, c.invite_defaults, o.domain from campaigns c join organizations o on o.id = c.organization_id
        where c.id = ${campaignId} and c.organization_id = ${organizationId} and not c.preview`,
  example: { organizationId: 'org_example', campaignId: 'cam_example' },
});

/**
 * Inserts a batch of invites (rows as a jsonb array) on an active campaign, share-locked, and their
 * email jobs (only for invites really inserted): nothing when the campaign stopped meanwhile, or
 * when its invite defaults are no longer `expectedDefaults` (the rows were resolved from them).
 * Returns the organization's link domain beside the counts.
 */
export const insertInviteRows = defineQuery({
  columns: { inserted: 'bigint', jobs: 'bigint', domain: 'text | null' },
  statement: ({
    organizationId,
    campaignId,
    records,
    emailJobs,
    expectedDefaults,
  }: {
    organizationId: string;
    campaignId: string;
    records: unknown[];
    emailJobs: JobSpec[] | null;
    expectedDefaults?: unknown;
  }) => {
    const jobs = emailJobs ? addJobsSql(emailJobs, sql`spec.payload->>'inviteId' in (select id from inserted)`) : sql`(select 0)`;
    const defaultsUnchanged = expectedDefaults === undefined ? sql`` : sql`and c.invite_defaults = ${JSON.stringify(expectedDefaults)}::jsonb`;
    return sql`with campaign as (
          select c.id, c.organization_id from campaigns c
          where c.id = ${campaignId} and c.organization_id = ${organizationId} and c.status = 'active' ${defaultsUnchanged} for share
        ), inserted as (
          insert into invites (id, organization_id, campaign_id, share_link_id, token_hash, email, name, language, status, email_status,
                               email_template, email_queued_at, expires_at, script_version, metadata, created_at, updated_at)
          select r.id, campaign.organization_id, campaign.id, r.share_link_id, r.token_hash, r.email, r.name, r.language, 'pending', r.email_status,
                 r.email_template, r.email_queued_at, r.expires_at, r.script_version, r.metadata, r.created_at, r.created_at
          from campaign, jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(
            id text, share_link_id text, token_hash text, email text, name text, language text, email_status text,
            email_template text, email_queued_at timestamptz, expires_at timestamptz, script_version integer, metadata jsonb, created_at timestamptz)
          returning id
        ), queued as (
          select count(*) as jobs from ${jobs} as queued_jobs
        )
        select (select count(*) from inserted) as inserted, (select jobs from queued) as jobs,
               (select o.domain from organizations o where o.id = ${organizationId}) as domain`;
  },
  example: {
    organizationId: 'org_example',
    campaignId: 'cam_example',
    records: [] as unknown[],
    emailJobs: null as JobSpec[] | null,
    expectedDefaults: { expiresIn: '14d' } as unknown,
  },
});

/** What an invite list filters on (the campaign's, in the caller's organization). */
export interface InviteFilters {
  organizationId: string;
  campaignId: string;
  status?: TInviteStatus | undefined;
  /** An ILIKE pattern matching the address exactly (case-insensitive). */
  emailPattern?: string | undefined;
  shareLinkId?: string | undefined;
}

/** The status a reader sees, as a filter: expiry counts before the job writes it (effectiveInviteStatus). */
function inviteFilters(filters: InviteFilters): Sql {
  const parts: Sql[] = [sql`i.campaign_id = ${filters.campaignId}`, sql`i.organization_id = ${filters.organizationId}`];
  switch (filters.status) {
    case undefined:
      break;
    case 'pending':
    case 'started':
      parts.push(sql`i.status = ${filters.status} and i.expires_at > now()`);
      break;
    case 'expired':
      parts.push(sql`(i.status = 'expired' or (i.status in ('pending', 'started') and i.expires_at <= now()))`);
      break;
    default:
      parts.push(sql`i.status = ${filters.status}`);
  }
  if (filters.emailPattern !== undefined) parts.push(sql`i.email ilike ${filters.emailPattern}`);
  if (filters.shareLinkId !== undefined) parts.push(sql`i.share_link_id = ${filters.shareLinkId}`);
  return parts.reduce((joined, filter) => sql`${joined} and ${filter}`);
}

/**
 * A campaign's invites by offset, newest first, in one statement: whether the campaign is the
 * caller's (no row: 404), the organization's link domain, the total of the filters, and the page
 * with each row's sort value for `nextCursor`. A campaign with an empty page answers one row
 * whose invite columns are null.
 */
/** The invite's timestamps as ISO text (the driver's timestamps are text in PostgreSQL's own format). */
const INVITE_TIMESTAMPS = rawSql(
  ['expires_at', 'started_at', 'completed_at', 'cancelled_at', 'email_sent_at', 'created_at', 'updated_at']
    .map((column) => `${isoTimestamp(`i.${column}`)} as ${column}`)
    .join(', '),
);

export const invitePage = defineQuery({
  columns: {
    link_domain: 'text | null',
    total: 'bigint',
    id: 'text | null',
    campaign_id: 'text | null',
    share_link_id: 'text | null',
    email: 'text | null',
    name: 'text | null',
    language: 'text | null',
    status: 'text | null',
    email_status: 'text | null',
    email_template: 'text | null',
    expires_at: 'text | null',
    metadata: 'jsonb | null',
    started_at: 'text | null',
    completed_at: 'text | null',
    cancelled_at: 'text | null',
    email_sent_at: 'text | null',
    created_at: 'text | null',
    updated_at: 'text | null',
    position: 'bigint | null',
    sort_value: 'text | null',
  },
  statement: (p: InviteFilters & { limit: number; offset: number }) =>
    sql`select o.domain as link_domain, (select count(*) from invites i where ${inviteFilters(p)}) as total, page.*
          from campaigns c
          join organizations o on o.id = c.organization_id
          left join lateral (
            select i.id, i.campaign_id, i.share_link_id, i.email, i.name, i.language, i.status, i.email_status, i.email_template,
                   i.metadata, i.created_at::text as sort_value, ${INVITE_TIMESTAMPS},
                   row_number() over (order by i.created_at desc, i.id desc) as position
              from invites i where ${inviteFilters(p)}
             order by i.created_at desc, i.id desc
             limit ${p.limit} offset ${p.offset}
          ) as page on true
         where c.id = ${p.campaignId} and c.organization_id = ${p.organizationId} and not c.preview
         order by page.position`,
  example: {
    organizationId: 'org_example',
    campaignId: 'cam_example',
    status: 'expired' as TInviteStatus | undefined,
    emailPattern: 'a@example.com' as string | undefined,
    shareLinkId: 'shl_example' as string | undefined,
    limit: 20,
    offset: 0,
  },
});
