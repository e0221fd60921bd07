import { defineQuery } from '../../db/query.js';
import { sql } from '../../db/sql.js';

/** Respondents of share links: invites started through each link. */
export const respondentsByShareLink = defineQuery({
  columns: { share_link_id: 'text', respondents: 'bigint' },
  statement: ({ shareLinkIds }: { shareLinkIds: string[] }) =>
    sql`select share_link_id, count(*) as respondents from invites
     where share_link_id = any(${shareLinkIds}::text[]) and started_at is not null group by share_link_id`,
  example: { shareLinkIds: ['shl_example'] },
});
