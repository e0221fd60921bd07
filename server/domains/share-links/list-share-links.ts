import type { Page } from '../../../shared/schemas/common.js';
import type { TListShareLinksInput, TShareLink } from '../../../shared/schemas/share-links.js';
import { ShareLink } from '../../entities/index.js';
import { loadCampaign } from '../campaigns/index.js';
import { loadLinkOwner } from '../organizations/index.js';
import type { Caller } from '../common/caller.js';
import { findPage, pageFrom } from '../common/keyset-page.js';
import type { ShareLinkDeps } from './load-share-link.js';
import { toShareLinkDto } from './serialize.js';
import { countRespondents } from '../invites/index.js';

export async function listShareLinks({ em, services }: ShareLinkDeps, caller: Caller, input: TListShareLinksInput): Promise<Page<TShareLink>> {
  const { organizationId } = caller;
  const { links } = services;
  const campaign = await loadCampaign(em, caller, { campaignId: input.campaignId });
  const page = await findPage(em, ShareLink, { campaign, organization: organizationId }, input);
  const respondents = await countRespondents(
    em,
    page.items.map((link) => link.id),
  );
  const owner = await loadLinkOwner(em, caller);
  const now = new Date();
  return pageFrom(
    page,
    page.items.map((link) => toShareLinkDto(link, campaign, respondents.get(link.id)!, owner, links, now)),
  );
}
