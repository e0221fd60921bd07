import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TShareLinkStatus } from '../../../shared/schemas/share-links.js';
import { Campaign, type Organization, ShareLink } from '../../entities/index.js';
import { type InviteServices, insertInvites } from '../invites/index.js';
import { resolveInviteExpiry } from '../campaigns/index.js';
import { isWellFormedShareCode } from './share-codes.js';
import { assessShareLink } from '../invites/index.js';

export type JoinOutcome =
  | { kind: 'joined'; inviteUrl: string; organization: Organization; campaign: Campaign }
  /** A preview of an open link: nothing was created. */
  | { kind: 'open' }
  | { kind: 'not_found' }
  | { kind: 'unavailable'; reason: Exclude<TShareLinkStatus, 'active'> | 'paused'; organization: Organization; campaign: Campaign };

/**
 * A visit to `/join/{code}`: a fresh anonymous invite for the link's campaign, expiring with the
 * link or by the campaign's invite default, whichever is first. The respondent cap is checked
 * here to turn visitors away early, and enforced race-free when an interview starts (startInvite).
 * `preview` (HEAD requests, link unfurlers) reports the outcome without creating an invite.
 */
// No caller: the code finds the organization (a share link is public by design).
export async function joinShareLink(
  { em, services }: { em: EntityManager; services: InviteServices },
  { code, ...options }: { code: string; preview?: boolean },
): Promise<JoinOutcome> {
  if (!isWellFormedShareCode(code)) return { kind: 'not_found' };
  return em.transactional(async (tx) => {
    const link = await tx.findOne(ShareLink, { code }, { populate: ['organization'] });
    if (!link) return { kind: 'not_found' };
    // Shared lock: a pause or archive committing meanwhile waits for this invite, or this waits for it.
    const campaign = await tx.findOneOrFail(Campaign, link.campaign.id, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
    const organization = link.organization;
    const { status } = await assessShareLink(tx, link, campaign);
    if (status !== 'active') return { kind: 'unavailable', reason: status, organization, campaign };
    if (campaign.status === 'paused') return { kind: 'unavailable', reason: 'paused', organization, campaign };
    if (options.preview) return { kind: 'open' };

    const now = new Date();
    const byCampaignDefault = resolveInviteExpiry(campaign, {}, now);
    const expiresAt = link.expiresAt && link.expiresAt < byCampaignDefault ? link.expiresAt : byCampaignDefault;
    const [invite] = await insertInvites(
      tx,
      services,
      { id: campaign.id, organizationId: organization.id, status: campaign.status, inviteDefaults: campaign.inviteDefaults },
      [{ email: null }],
      {
        sendEmail: false,
        expiresAt: expiresAt.toISOString(),
        shareLinkId: link.id,
      },
    );
    const token = services.inviteTokens.tokenFor(invite!.id);
    return { kind: 'joined', inviteUrl: services.links.inviteUrl(organization, token), organization, campaign };
  });
}
