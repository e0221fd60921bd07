import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TListShareLinksInput, TShareLink } from '../../../shared/schemas/share-links.js';
import { ShareLink } from '../../entities/index.js';
import type { PublicLinks } from '../../lib/public-links.js';
import { loadCampaign } from '../campaigns/index.js';
import { loadLinkOwner } from '../organizations/index.js';
import { findPage, pageFrom } from '../common/keyset-page.js';
import { toShareLinkDto } from './serialize.js';
import { countRespondents } from './share-link-status.js';

export async function listShareLinks(
  em: EntityManager,
  links: PublicLinks,
  organizationId: string,
  input: TListShareLinksInput,
): Promise<Page<TShareLink>> {
  const campaign = await loadCampaign(em, { organizationId }, { campaignId: input.campaignId });
  const page = await findPage(em, ShareLink, { campaign, organization: organizationId }, input);
  const respondents = await countRespondents(
    em,
    page.items.map((link) => link.id),
  );
  const owner = await loadLinkOwner(em, { organizationId });
  const now = new Date();
  return pageFrom(
    page,
    page.items.map((link) => toShareLinkDto(link, campaign, respondents.get(link.id)!, owner, links, now)),
  );
}
