import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { TStakeholderLink } from '../../../shared/schemas/stakeholder-links.js';
import { queryRows, sql } from '../../db/sql.js';
import { notFound } from '../../errors.js';

import { LINK_COLUMNS, type LinkRow, linkFromRow } from './link-rows.js';
import { assertMayShare } from './target-access.js';

/**
 * `stakeholderLinks.revoke`: the link stops working with this statement's commit (the shared
 * view checks it on every read, and again when it records the read). Revoking again keeps the
 * first time; 404 for another organization's link.
 */
export async function revokeStakeholderLink({ em }: Pick<Deps, 'em'>, auth: CustomerAuth, { linkId }: { linkId: string }): Promise<TStakeholderLink> {
  const [found] = await queryRows<{ kind: LinkRow['kind'] }>(em, sql`select kind from stakeholder_links where id = ${linkId} and organization_id = ${auth.organizationId}`);
  if (!found) throw notFound('stakeholderLink', linkId, 'linkId');
  assertMayShare(auth, found.kind);
  const [row] = await queryRows<LinkRow>(
    em,
    sql`with l as (
          update stakeholder_links set revoked_at = coalesce(revoked_at, now())
          where id = ${linkId} and organization_id = ${auth.organizationId}
          returning *)
        select ${LINK_COLUMNS} from l`,
  );
  if (!row) throw notFound('stakeholderLink', linkId, 'linkId');
  return linkFromRow(row);
}
