import type { TShareLink } from '../../../shared/schemas/share-links.js';
import type { Campaign, ShareLink } from '../../entities/index.js';
import type { LinkOwner, PublicLinks } from '../../lib/public-links.js';
import { shareLinkStatus } from '../invites/index.js';

export function toShareLinkDto(
  link: ShareLink,
  campaign: Pick<Campaign, 'status'>,
  respondents: number,
  owner: LinkOwner,
  links: PublicLinks,
  now: Date = new Date(),
): TShareLink {
  return {
    id: link.id,
    campaignId: link.campaign.id,
    code: link.code,
    url: links.shareLinkUrl(owner, link.code),
    status: shareLinkStatus(link, campaign, respondents, now),
    maxRespondents: link.maxRespondents ?? null,
    respondents,
    expiresAt: link.expiresAt?.toISOString() ?? null,
    closedAt: link.closedAt?.toISOString() ?? null,
    createdAt: link.createdAt.toISOString(),
    updatedAt: link.updatedAt.toISOString(),
  };
}
