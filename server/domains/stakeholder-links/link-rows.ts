import type { EntityManager } from '@mikro-orm/postgresql';
import type { TStakeholderLink, TStakeholderLinkKind } from '../../../shared/schemas/stakeholder-links.js';
import { isoTimestamp, queryRows, rawSql, type Sql, sql } from '../../db/sql.js';
import { authorFromRow } from '../common/author.js';

export interface LinkRow {
  id: string;
  kind: TStakeholderLinkKind;
  target_id: string;
  target_name: string | null;
  include_transcripts: boolean;
  redact_pii: boolean;
  created_by_kind: string;
  created_by_id: string;
  created_by_name: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  expired: boolean;
  open_count: number;
  last_opened_at: string | null;
  sort_value: string;
}

/**
 * The columns of a LinkRow from `l` (stakeholder_links): the target's name read now (null once it
 * is deleted; a preview campaign or session is never a target), expiry judged by the database's clock.
 */
export const LINK_COLUMNS = rawSql(
  `l.id, l.kind, l.target_id,
   case l.kind
     when 'campaign' then (select c.name from campaigns c where c.id = l.target_id and c.organization_id = l.organization_id)
     when 'collection' then (select col.name from collections col where col.id = l.target_id and col.organization_id = l.organization_id)
     else (select c.name from sessions s join campaigns c on c.id = s.campaign_id where s.id = l.target_id and s.organization_id = l.organization_id)
   end as target_name,
   l.include_transcripts, l.redact_pii, l.created_by_kind, l.created_by_id, l.created_by_name,
   ${isoTimestamp('l.created_at')} as created_at, ${isoTimestamp('l.expires_at')} as expires_at, ${isoTimestamp('l.revoked_at')} as revoked_at,
   l.expires_at <= now() as expired, l.open_count, ${isoTimestamp('l.last_opened_at')} as last_opened_at, l.created_at::text as sort_value`,
);

export function linkFromRow(row: LinkRow): TStakeholderLink {
  return {
    id: row.id,
    target: { kind: row.kind, id: row.target_id, name: row.target_name },
    includeTranscripts: row.include_transcripts,
    redactPii: row.redact_pii,
    status: row.revoked_at ? 'revoked' : row.expired ? 'expired' : 'active',
    createdBy: authorFromRow(row.created_by_kind, row.created_by_id, row.created_by_name),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    openCount: Number(row.open_count),
    lastOpenedAt: row.last_opened_at,
  };
}

/** The organization's links `where` keeps (on `l`), in one statement. */
export async function readLinks(em: EntityManager, organizationId: string, where: Sql, tail: Sql = sql``): Promise<LinkRow[]> {
  return queryRows<LinkRow>(em, sql`select ${LINK_COLUMNS} from stakeholder_links l where l.organization_id = ${organizationId} and ${where} ${tail}`);
}
