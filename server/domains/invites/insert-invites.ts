import type { EntityManager } from '@mikro-orm/postgresql';
import type { Campaign, Invite } from '../../entities/index.js';
import { AppError, notFound } from '../../errors.js';
import { hashInviteToken } from '../../lib/invite-tokens.js';
import { newId } from '../../lib/ids.js';
import type { LinkOwner } from '../../lib/public-links.js';
import type { AppServices } from '../../services.js';
import { assertCampaignAcceptsInvites, type InviteCampaign, resolveEmailTemplate, resolveInviteExpiry } from '../campaigns/index.js';
import { inviteEmailJob } from './invite-email-job.js';
import { insertInviteRows, inviteCampaignWithDomain } from './queries.js';
import type { OrganizationScope } from '../common/caller.js';

/** An invite as inserted: every column, the campaign and share link by id. */
export type InsertedInvite = Omit<Invite, 'campaign' | 'shareLink' | 'organization'> & {
  campaign: { id: string };
  shareLink?: { id: string } | null;
};

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
 * Campaigns' invite defaults as last read, by organization and campaign (the most recent
 * `INVITE_DEFAULTS_REMEMBERED`). A create needs nothing else from its campaign, and the insert
 * checks them unchanged (and the campaign active) in its own statement, so a remembered entry
 * saves the campaign read and a stale one costs a re-read, never an invite resolved from old
 * defaults. In-process: every API process keeps its own.
 */
const rememberedInviteDefaults = new Map<string, InviteCampaign['inviteDefaults']>();
const INVITE_DEFAULTS_REMEMBERED = 1000;

function rememberInviteDefaults(key: string, defaults: InviteCampaign['inviteDefaults']): void {
  rememberedInviteDefaults.delete(key);
  rememberedInviteDefaults.set(key, defaults);
  // A Map iterates in insertion order: the first key is the one used longest ago.
  if (rememberedInviteDefaults.size > INVITE_DEFAULTS_REMEMBERED) rememberedInviteDefaults.delete(rememberedInviteDefaults.keys().next().value!);
}

/**
 * Invites created through the API on a campaign of the caller's organization (404 for another's,
 * CAMPAIGN_NOT_ACTIVE unless active), with their link owner. One statement when the campaign's
 * invite defaults are remembered and unchanged; else the campaign is read first, as the first time.
 */
export async function createCampaignInvites(
  em: EntityManager,
  services: InviteServices,
  scope: OrganizationScope,
  campaignId: string,
  participants: Participant[],
  options: InviteBatchOptions,
): Promise<{ rows: InsertedInvite[]; owner: LinkOwner }> {
  const { organizationId } = scope;
  const key = `${organizationId}/${campaignId}`;
  const remembered = rememberedInviteDefaults.get(key);
  if (remembered) {
    const campaign = { id: campaignId, organizationId, status: 'active' as const, inviteDefaults: remembered };
    const written = await writeInvites(em, services, campaign, participants, options, { expectDefaults: true });
    if (written) {
      rememberInviteDefaults(key, remembered);
      return { rows: written.rows, owner: { domain: written.domain } };
    }
    // Changed, stopped or gone since: the read below says which.
    rememberedInviteDefaults.delete(key);
  }
  const { campaign, owner } = await loadInviteCampaign(em, scope, { campaignId });
  assertCampaignAcceptsInvites(campaign);
  rememberInviteDefaults(key, campaign.inviteDefaults);
  return { rows: await insertInvites(em, services, campaign, participants, options), owner };
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
): Promise<InsertedInvite[]> {
  const written = await writeInvites(em, services, campaign, participants, options, { expectDefaults: false });
  if (!written) {
    // Paused or archived since it was read: nothing was written.
    throw new AppError('CAMPAIGN_NOT_ACTIVE', `Campaign ${campaign.id} is no longer active; invites cannot be created.`, { campaignId: campaign.id });
  }
  return written.rows;
}

/**
 * The statement behind both: null when nothing was written (the campaign no longer active, or,
 * with `expectDefaults`, its invite defaults no longer the ones the rows were resolved from).
 */
async function writeInvites(
  em: EntityManager,
  services: InviteServices,
  campaign: InviteCampaign & { organizationId: string },
  participants: Participant[],
  options: InviteBatchOptions,
  { expectDefaults }: { expectDefaults: boolean },
): Promise<{ rows: InsertedInvite[]; domain: string | null } | null> {
  assertCampaignAcceptsInvites(campaign);
  const now = new Date();
  const expiresAt = resolveInviteExpiry(campaign, options, now);
  // Checked and kept even without an email now: a later resend uses the template asked for here.
  const hasAddress = participants.some((participant) => participant.email !== null);
  const emailTemplate = hasAddress ? resolveEmailTemplate(services.emailTemplates, campaign, options.emailTemplate) : null;
  const rows: InsertedInvite[] = participants.map((participant) => {
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
  const written = await insertInviteRows.first(em, {
    organizationId: campaign.organizationId,
    campaignId: campaign.id,
    records,
    emailJobs: options.sendEmail ? rows.map((row) => inviteEmailJob(row.id)) : null,
    expectedDefaults: expectDefaults ? campaign.inviteDefaults : undefined,
  });
  // One statement inserts all or none of them.
  return Number(written?.inserted ?? 0) === rows.length ? { rows, domain: written!.domain } : null;
}

/**
 * The campaign invites are created for, and the organization's custom domain their links use, in
 * one read (the hot path's): 404 for another organization's campaign.
 */
async function loadInviteCampaign(
  em: EntityManager,
  scope: OrganizationScope,
  { campaignId }: { campaignId: string },
): Promise<{ campaign: InviteCampaign & { organizationId: string }; owner: LinkOwner }> {
  // A script's hidden preview campaign takes no invites through the API (it is not there for it).
  const { organizationId } = scope;
  const row = await inviteCampaignWithDomain.first(em, { organizationId, campaignId });
  if (!row) throw notFound('campaign', campaignId);
  // The columns hold what the schema allows (a check constraint, jsonb written from the campaign schema).
  return {
    campaign: { id: row.id, organizationId, status: row.status as Campaign['status'], inviteDefaults: row.invite_defaults as Campaign['inviteDefaults'] },
    owner: { domain: row.domain },
  };
}
