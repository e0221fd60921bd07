import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { STAKEHOLDER_LINK_LIMITS, type TStakeholderLinkOpens } from '../../../shared/schemas/stakeholder-links.js';
import { isoTimestamp, queryRows, rawSql, sql } from '../../db/sql.js';
import { notFound } from '../../errors.js';

import type { LinkRow } from './link-rows.js';
import { assertMayShare } from './target-access.js';

/** `stakeholderLinks.opens`: the audit of one link, its newest 100 reads and their count. */
export async function listStakeholderLinkOpens({ em }: Pick<Deps, 'em'>, auth: CustomerAuth, { linkId }: { linkId: string }): Promise<TStakeholderLinkOpens> {
  const [link] = await queryRows<{ kind: LinkRow['kind']; open_count: number }>(
    em,
    sql`select kind, open_count from stakeholder_links where id = ${linkId} and organization_id = ${auth.organizationId}`,
  );
  if (!link) throw notFound('stakeholderLink', linkId, 'linkId');
  assertMayShare(auth, link.kind);
  const opens = await queryRows<{ opened_at: string }>(
    em,
    sql`select ${rawSql(isoTimestamp('opened_at'))} as opened_at from stakeholder_link_opens where link_id = ${linkId}
        order by opened_at desc, id desc limit ${STAKEHOLDER_LINK_LIMITS.maxOpensListed}`,
  );
  return { linkId, openCount: Number(link.open_count), opens: opens.map((open) => ({ openedAt: open.opened_at })) };
}
