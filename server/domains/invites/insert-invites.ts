import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, sql } from '../../db/sql.js';
import type { Campaign } from '../../entities/index.js';
import { AppError, notFound } from '../../errors.js';
import { hashInviteToken } from '../../lib/invite-tokens.js';
import { newId } from '../../lib/ids.js';
import type { LinkOwner } from '../../lib/public-links.js';
import { addJobsSql } from '../../jobs/add-jobs.js';
import type { AppServices } from '../../services.js';
import { assertCampaignAcceptsInvites, type InviteCampaign, resolveEmailTemplate, resolveInviteExpiry } from '../campaigns/index.js';
import { inviteEmailJob } from './invite-email-job.js';
import type { InviteView } from './serialize.js';

export type InviteServices = Pick<AppServices, 'inviteTokens' | 'links' | 'emailTemplates'>;

interface Participant {
  email: string | null;
  name?: string | undefined;
  language?: string | undefined;
  metadata?: Record<string, string | number | boolean> | undefined;
}

interface InviteBatchOptions {
  sendEmail: boolean;
  expiresIn?: string | undefined;
  expiresAt?: string | undefined;
  emailTemplate?: string | undefined;
  shareLinkId?: string | null;
  /** A preview invite's script version (see createScriptPreview); otherwise the published one runs. */
  scriptVersion?: number | null;
}

/**
 * Inserts invites for an active campaign and enqueues their emails in one statement, which
 * share-locks the campaign and inserts only while it is still active: a pause or archive
 * committed meanwhile leaves nothing written and answers CAMPAIGN_NOT_ACTIVE. Inside the
 * caller's transaction when there is one. Validation (templates, campaign state) happens before
 * any write.
 */
export async function insertInvites(
  em: EntityManager,
  services: InviteServices,
  campaign: InviteCampaign & { organizationId: string },
  participants: Participant[],
  options: InviteBatchOptions,
): Promise<InviteView[]> {
  assertCampaignAcceptsInvites(campaign);
  const now = new Date();
  const expiresAt = resolveInviteExpiry(campaign, options, now);
  // Checked and kept even without an email now: a later resend uses the template asked for here.
  const hasAddress = participants.some((participant) => participant.email !== null);
  const emailTemplate = hasAddress ? resolveEmailTemplate(services.emailTemplates, campaign, options.emailTemplate) : null;
  const rows: InviteView[] = participants.map((participant) => {
    const id = newId('inv');
    return {
      id,
      campaign: { id: campaign.id },
      shareLink: options.shareLinkId ? { id: options.shareLinkId } : null,
      tokenHash: hashInviteToken(services.inviteTokens.tokenFor(id)),
      email: participant.email,
      name: participant.name ?? null,
      language: participant.language ?? null,
      status: 'pending' as const,
      emailStatus: options.sendEmail ? ('queued' as const) : ('not_sent' as const),
      emailTemplate,
      emailError: null,
      emailSentAt: null,
      emailQueuedAt: options.sendEmail ? now : null,
      expiresAt,
      scriptVersion: options.scriptVersion ?? null,
      metadata: participant.metadata ?? {},
      startedAt: null,
      completedAt: null,
      cancelledAt: null,
      createdAt: now,
      updatedAt: now,
    };
  });
  const records = rows.map((row) => ({
    id: row.id,
    share_link_id: row.shareLink?.id ?? null,
    token_hash: row.tokenHash,
    email: row.email,
    name: row.name,
    language: row.language,
    email_status: row.emailStatus,
    email_template: row.emailTemplate,
    email_queued_at: row.emailQueuedAt?.toISOString() ?? null,
    expires_at: row.expiresAt.toISOString(),
    script_version: row.scriptVersion,
    metadata: row.metadata,
    created_at: now.toISOString(),
  }));
  // Email jobs only for invites really inserted: none when the campaign stopped meanwhile.
  const jobs = options.sendEmail
    ? addJobsSql(rows.map((row) => inviteEmailJob(row.id)), sql`spec.payload->>'inviteId' in (select id from inserted)`)
    : sql`(select 0)`;
  const [written] = await queryRows<{ inserted: string }>(
    em,
    sql`with campaign as (
          select c.id, c.organization_id from campaigns c
          where c.id = ${campaign.id} and c.organization_id = ${campaign.organizationId} and c.status = 'active' for share
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
        select (select count(*) from inserted) as inserted, (select jobs from queued) as jobs`,
  );
  if (Number(written?.inserted ?? 0) !== rows.length) {
    // Paused or archived since it was read: nothing was written.
    throw new AppError('CAMPAIGN_NOT_ACTIVE', `Campaign ${campaign.id} is no longer active; invites cannot be created.`, { campaignId: campaign.id });
  }
  return rows;
}

/**
 * The campaign invites are created for, and the organization's custom domain their links use, in
 * one read (the hot path's): 404 for another organization's campaign.
 */
export async function loadInviteCampaign(em: EntityManager, organizationId: string, campaignId: string): Promise<{ campaign: InviteCampaign & { organizationId: string }; owner: LinkOwner }> {
  const [row] = await queryRows<{ id: string; status: Campaign['status']; invite_defaults: Campaign['inviteDefaults']; domain: string | null }>(
    em,
    // A script's hidden preview campaign takes no invites through the API (it is not there for it).
    sql`select c.id, c.status, c.invite_defaults, o.domain from campaigns c join organizations o on o.id = c.organization_id
        where c.id = ${campaignId} and c.organization_id = ${organizationId} and not c.preview`,
  );
  if (!row) throw notFound('campaign', campaignId);
  return { campaign: { id: row.id, organizationId, status: row.status, inviteDefaults: row.invite_defaults }, owner: { domain: row.domain } };
}
