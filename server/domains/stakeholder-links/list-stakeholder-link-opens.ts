import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { TStakeholderLinkOpens } from '../../../shared/schemas/stakeholder-links.js';
import { linkKindAndOpens, linkOpens } from './queries.js';
import { notFound } from '../../errors.js';

import type { LinkRow } from './link-rows.js';
import { assertMayShare } from './target-access.js';

/** `stakeholderLinks.opens`: the audit of one link, its newest 100 reads and their count. */
export async function listStakeholderLinkOpens({ em }: Pick<Deps, 'em'>, auth: CustomerAuth, { linkId }: { linkId: string }): Promise<TStakeholderLinkOpens> {
  const link = await linkKindAndOpens.first(em, { organizationId: auth.organizationId, linkId });
  if (!link) throw notFound('stakeholderLink', linkId, 'linkId');
  assertMayShare(auth, link.kind as LinkRow['kind']);
  const opens = await linkOpens.rows(em, { linkId });
  return { linkId, openCount: Number(link.open_count), opens: opens.map((open) => ({ openedAt: open.opened_at })) };
}
