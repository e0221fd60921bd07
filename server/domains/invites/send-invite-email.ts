import type { EntityManager } from '@mikro-orm/postgresql';
import { languageOf } from './interview-language.js';
import { type InviteEmailRecord, recordInviteEmailOutcome, recordInviteEmailSent } from './queries.js';
import { participantTitleOf } from '../campaigns/index.js';
import { systemCaller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { externalIdOf, type InviteFacts, publishEvent } from '../webhooks/index.js';
import { describeEmailFailure, isPermanentEmailFailure } from '../../email/mailer.js';
import { Invite, isTestWorld } from '../../entities/index.js';
import type { AppServices } from '../../services.js';
import { effectiveInviteStatus } from './serialize.js';

export type InviteEmailServices = Pick<AppServices, 'inviteTokens' | 'links' | 'emailTemplates' | 'mailer' | 'testModeMailer' | 'logger'>;

export type InviteEmailOutcome = 'sent' | 'skipped' | 'bounced' | 'failed' | 'retry';

export interface DeliveryAttempt {
  number: number;
  maxAttempts: number;
}

/**
 * Sends one invitation email (the `invite__send_email` job). Any failure on the way (a template
 * this worker does not know, the relay) counts as an attempt, so the last one always ends in
 * `failed` or `bounced`, never in a `queued` that nothing will send. No transaction is held open while
 * the mail server talks; the outcome is written with a conditional update, so a cancel or a
 * resend that happened meanwhile is not overwritten. Returns `retry` after recording a
 * temporary failure; the caller then throws so graphile-worker retries with backoff. No caller:
 * the job's payload is the invite id alone, and the invite names its organization.
 */
export async function sendInviteEmail(
  { em, services }: Pick<Deps, 'em'> & { services: InviteEmailServices },
  input: { inviteId: string; attempt: DeliveryAttempt },
): Promise<InviteEmailOutcome> {
  const { inviteId, attempt } = input;
  const invite = await em.findOne(Invite, inviteId, { populate: ['campaign', 'organization'] });
  if (!invite || invite.emailStatus !== 'queued' || !invite.email) {
    services.logger.info({ inviteId, emailStatus: invite?.emailStatus }, 'invitation email skipped');
    return 'skipped';
  }
  // Every write names the request this job serves (emailQueuedAt): a resend made meanwhile is a
  // new request with its own job, and this one must not overwrite it.
  const queuedAt = invite.emailQueuedAt ?? invite.createdAt;
  const record = (outcome: InviteEmailRecord, on: EntityManager = em) =>
    recordInviteEmailOutcome.rows(on, { inviteId: invite.id, queuedAt: invite.emailQueuedAt ?? null, outcome });
  // What the invite's events say of it (invite.delivered, invite.bounced).
  const inviteFacts: InviteFacts = {
    inviteId: invite.id,
    campaignId: invite.campaign.id,
    campaignName: invite.campaign.name,
    participant: { email: invite.email, name: invite.name ?? null, externalId: externalIdOf(invite.metadata as Record<string, unknown>) },
  };

  // Expired, cancelled or used meanwhile, or its campaign stopped: nothing to invite to any more.
  const status = effectiveInviteStatus(invite);
  if (status !== 'pending' || invite.campaign.status !== 'active') {
    await record({ status: 'not_sent' });
    services.logger.info({ inviteId, status, campaignStatus: invite.campaign.status }, 'invitation email not sent: invite no longer open');
    return 'skipped';
  }

  try {
    const organization = invite.organization;
    const token = services.inviteTokens.tokenFor(invite.id);
    const rendered = services.emailTemplates.renderInvitation(invite.emailTemplate ?? 'default', {
      participantName: invite.name ?? null,
      campaignName: participantTitleOf(invite.campaign),
      organizationName: organization.name,
      logoUrl: organization.logo ?? null,
      brandColor: organization.settings.brandColor ?? null,
      inviteUrl: services.links.inviteUrl(organization, token),
      expiresAt: invite.expiresAt,
      language: languageOf(invite.language, invite.campaign.settings, undefined),
    });
    const host = new URL(services.links.originFor(organization)).hostname;
    // Test mode: a test world's invitation goes to the outbox only, and says it is a test.
    const testMode = isTestWorld(organization);
    await (testMode ? services.testModeMailer : services.mailer).send({
      to: { address: invite.email, name: invite.name ?? null },
      replyTo: organization.settings.replyToEmail ?? null,
      subject: testMode ? `[Test] ${rendered.subject}` : rendered.subject,
      html: rendered.html,
      text: rendered.text,
      // One per queued request, the same across its retries, so a receiver can spot a duplicate.
      messageId: `<${invite.id}.${queuedAt.getTime()}@${host}>`,
    });
  } catch (error) {
    const reason = describeEmailFailure(error);
    if (isPermanentEmailFailure(error)) {
      // The refusal and its event commit together; neither when a resend has taken over the invite.
      await em.transactional(async (tx) => {
        const recorded = await record({ status: 'bounced', error: reason }, tx);
        if (recorded.length === 0) return;
        await publishEvent({ em: tx }, systemCaller(invite.organization.id), {
          type: 'invite.bounced',
          sessionId: null,
          facts: { ...inviteFacts, reason },
          occurredAt: new Date(),
        });
      });
      services.logger.warn({ inviteId, reason }, 'invitation email refused by the mail server');
      return 'bounced';
    }
    if (attempt.number >= attempt.maxAttempts) {
      await record({ status: 'failed', error: reason });
      services.logger.warn({ inviteId, reason, attempts: attempt.number }, 'invitation email failed after its last attempt');
      return 'failed';
    }
    await record({ status: null, error: reason });
    services.logger.info({ inviteId, reason, attempt: attempt.number }, 'invitation email failed; will retry');
    return 'retry';
  }
  // Delivered is a fact: recorded even when the invite was cancelled during the send (status
  // not_sent), but never over a newer request queued by a resend.
  await em.transactional(async (tx) => {
    const recorded = await recordInviteEmailSent.rows(tx, { inviteId: invite.id, queuedAt: invite.emailQueuedAt ?? null });
    if (recorded.length === 0) return;
    await publishEvent({ em: tx }, systemCaller(invite.organization.id), {
      type: 'invite.delivered',
      sessionId: null,
      facts: inviteFacts,
      occurredAt: new Date(),
    });
  });
  return 'sent';
}
