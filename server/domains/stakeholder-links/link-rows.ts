import type { EntityManager } from '@mikro-orm/postgresql';
import type { TStakeholderLink, TStakeholderLinkKind } from '../../../shared/schemas/stakeholder-links.js';
import { type Sql, sql } from '../../db/sql.js';
import { links } from './queries.js';
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
  return (await links.rows(em, { organizationId, where, tail })) as LinkRow[];
}
