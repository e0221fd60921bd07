import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Campaign, Invite } from '../../entities/index.js';
import { hashInviteToken } from '../../lib/invite-tokens.js';
import { newId } from '../../lib/ids.js';
import { addJobs } from '../../jobs/add-jobs.js';
import type { AppServices } from '../../services.js';
import { loadCampaign } from '../campaigns/load-campaign.js';
import { assertCampaignAcceptsInvites, resolveEmailTemplate, resolveInviteExpiry } from './invite-options.js';
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
}

/**
 * Inserts invites for an active campaign in one statement and enqueues their emails in one more,
 * inside the caller's transaction. Validation (templates, campaign state) happens before any write.
 */
export async function insertInvites(
  tx: EntityManager,
  services: InviteServices,
  campaign: Campaign,
  participants: Participant[],
  options: InviteBatchOptions,
): Promise<InviteView[]> {
  assertCampaignAcceptsInvites(campaign);
  const now = new Date();
  const expiresAt = resolveInviteExpiry(campaign, options, now);
  // Checked and kept even without an email now: a later resend uses the template asked for here.
  const hasAddress = participants.some((participant) => participant.email !== null);
  const emailTemplate = hasAddress ? resolveEmailTemplate(services.emailTemplates, campaign, options.emailTemplate) : null;
  const rows = participants.map((participant) => {
    const id = newId('inv');
    return {
      id,
      organization: campaign.organization.id,
      campaign,
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
      metadata: participant.metadata ?? {},
      startedAt: null,
      completedAt: null,
      cancelledAt: null,
      createdAt: now,
      updatedAt: now,
    };
  });
  await tx.insertMany(
    Invite,
    rows.map((row) => ({ ...row, campaign: campaign.id, shareLink: row.shareLink?.id ?? null })),
  );
  if (options.sendEmail) await addJobs(tx, rows.map((row) => inviteEmailJob(row.id)));
  return rows;
}

/** Locks the campaign for share, so a concurrent pause or archive cannot slip between check and insert. */
export async function loadCampaignForInvites(tx: EntityManager, organizationId: string, campaignId: string): Promise<Campaign> {
  return loadCampaign(tx, organizationId, campaignId, { lockMode: LockMode.PESSIMISTIC_READ });
}
