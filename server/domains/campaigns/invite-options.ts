import { parseDurationSeconds } from '../../../shared/durations.js';
import { DEFAULT_INVITE_EXPIRES_IN } from '../../../shared/schemas/invites.js';
import type { Campaign } from '../../entities/index.js';

/** What invite creation reads of a campaign: an entity, or a row of the hot path. */
export type InviteCampaign = Pick<Campaign, 'id' | 'status' | 'inviteDefaults'>;
import { AppError, validationError } from '../../errors.js';
import type { EmailTemplates } from '../../email/templates.js';

export const DEFAULT_EMAIL_TEMPLATE = 'default';

/** `expiresAt` wins over `expiresIn`, which wins over the campaign default, else 7 days. */
export function resolveInviteExpiry(campaign: InviteCampaign, input: { expiresAt?: string | undefined; expiresIn?: string | undefined }, now: Date): Date {
  if (input.expiresAt) return new Date(input.expiresAt);
  const expiresIn = input.expiresIn ?? campaign.inviteDefaults.expiresIn ?? DEFAULT_INVITE_EXPIRES_IN;
  return new Date(now.getTime() + parseDurationSeconds(expiresIn)! * 1000);
}

/** The template an invitation uses: the request's, else the campaign default, else `default`. */
export function resolveEmailTemplate(templates: EmailTemplates, campaign: InviteCampaign, requested: string | undefined): string {
  const name = requested ?? campaign.inviteDefaults.emailTemplate ?? DEFAULT_EMAIL_TEMPLATE;
  assertKnownEmailTemplate(templates, name, 'emailTemplate', requested ? '' : " (the campaign's inviteDefaults.emailTemplate)");
  return name;
}

/** Campaign defaults name a template too; an unknown one is refused when it is set, not when an email is sent. */
export function assertKnownEmailTemplate(templates: EmailTemplates, name: string | null | undefined, path: string, origin = ''): void {
  if (name && !templates.has(name)) {
    throw validationError([{ path, message: `"${name}"${origin} is not a known template; available: ${templates.names().join(', ')}` }]);
  }
}

/** Invites are created only for active campaigns. */
export function assertCampaignAcceptsInvites(campaign: InviteCampaign): void {
  if (campaign.status !== 'active') {
    throw new AppError('CAMPAIGN_NOT_ACTIVE', `Campaign ${campaign.id} is ${campaign.status}; invites cannot be created.`, {
      campaignId: campaign.id,
      status: campaign.status,
    });
  }
}
