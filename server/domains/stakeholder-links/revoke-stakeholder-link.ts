import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { TStakeholderLink } from '../../../shared/schemas/stakeholder-links.js';
import { notFound } from '../../errors.js';

import { type LinkRow, linkFromRow } from './link-rows.js';
import { linkKindAndOpens, revokeLink } from './queries.js';
import { assertMayShare } from './target-access.js';

/**
 * `stakeholderLinks.revoke`: the link stops working with this statement's commit (the shared
 * view checks it on every read, and again when it records the read). Revoking again keeps the
 * first time; 404 for another organization's link.
 */
export async function revokeStakeholderLink({ em }: Pick<Deps, 'em'>, auth: CustomerAuth, { linkId }: { linkId: string }): Promise<TStakeholderLink> {
  const found = await linkKindAndOpens.first(em, { organizationId: auth.organizationId, linkId });
  if (!found) throw notFound('stakeholderLink', linkId, 'linkId');
  assertMayShare(auth, found.kind as LinkRow['kind']);
  const row = (await revokeLink.first(em, { organizationId: auth.organizationId, linkId })) as LinkRow | undefined;
  if (!row) throw notFound('stakeholderLink', linkId, 'linkId');
  return linkFromRow(row);
}
