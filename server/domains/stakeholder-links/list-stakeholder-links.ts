import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { CursorPage } from '../../../shared/schemas/common.js';
import type { TListStakeholderLinksInput, TStakeholderLink } from '../../../shared/schemas/stakeholder-links.js';
import { sql } from '../../db/sql.js';

import { afterCursor, cursorPage } from '../common/cursor-page.js';
import { linkFromRow, readLinks } from './link-rows.js';
import { shareableKinds } from './target-access.js';

/**
 * `stakeholderLinks.list`: the organization's links newest first, revoked and expired ones too
 * (their audit stays), optionally of one kind or one target. Links of a kind the caller may not
 * share (a campaign's without `campaigns:read`) are left out.
 */
export async function listStakeholderLinks(
  { em }: Pick<Deps, 'em'>,
  auth: CustomerAuth,
  input: TListStakeholderLinksInput,
): Promise<CursorPage<TStakeholderLink>> {
  const kinds = shareableKinds(auth).filter((kind) => input.kind === undefined || kind === input.kind);
  const rows = await readLinks(
    em,
    auth.organizationId,
    sql`l.kind in (select jsonb_array_elements_text(${JSON.stringify(kinds)}::jsonb))
        and (${input.targetId ?? null}::text is null or l.target_id = ${input.targetId ?? null})
        and ${afterCursor('l', input.cursor)}`,
    sql`order by l.created_at desc, l.id desc limit ${input.limit + 1}`,
  );
  return cursorPage(rows, input.limit, linkFromRow);
}
