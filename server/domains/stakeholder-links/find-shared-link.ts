import type { EntityManager } from '@mikro-orm/postgresql';
import type { TStakeholderLinkKind } from '../../../shared/schemas/stakeholder-links.js';
import { AppError } from '../../errors.js';
import { linkByTokenHash, recordLinkOpen } from './queries.js';
import { hashStakeholderToken, isWellFormedStakeholderToken } from './stakeholder-tokens.js';

/** A link as its token finds it, with what the shared view needs of its organization. */
export interface SharedLink {
  id: string;
  organizationId: string;
  organizationName: string;
  kind: TStakeholderLinkKind;
  targetId: string;
  includeTranscripts: boolean;
  redactPii: boolean;
  expiresAt: string;
}

interface Row {
  id: string;
  organization_id: string;
  organization_name: string;
  kind: TStakeholderLinkKind;
  target_id: string;
  include_transcripts: boolean;
  redact_pii: boolean;
  expires_at: string;
  revoked: boolean;
  expired: boolean;
  target_exists: boolean;
}

/** 404 for a token that names no link: the same answer for a malformed one, so nothing tells them apart. */
function unknownLink(): AppError {
  return new AppError('RESOURCE_NOT_FOUND', 'This link does not exist. Check that the whole address was copied.', { resource: 'stakeholderLink' });
}

const GONE_MESSAGES = {
  revoked: 'This link was revoked by whoever shared it.',
  expired: 'This link has expired.',
  removed: 'What this link shared has been deleted.',
} as const;

export type GoneReason = keyof typeof GONE_MESSAGES;

export function linkGone(reason: GoneReason): AppError {
  return new AppError('STAKEHOLDER_LINK_GONE', `${GONE_MESSAGES[reason]} Ask for a new link.`, { reason });
}

/**
 * The link a token opens, in one statement: 404 for an unknown token, 410 STAKEHOLDER_LINK_GONE
 * for a revoked or expired link (revoked wins) or one whose target was deleted. Expiry is judged
 * by the database's clock, as the list shows it.
 */
export async function findSharedLink(em: EntityManager, token: string): Promise<SharedLink> {
  if (!isWellFormedStakeholderToken(token)) throw unknownLink();
  const row = (await linkByTokenHash.first(em, { tokenHash: hashStakeholderToken(token) })) as Row | undefined;
  if (!row) throw unknownLink();
  if (row.revoked) throw linkGone('revoked');
  if (row.expired) throw linkGone('expired');
  if (!row.target_exists) throw linkGone('removed');
  return {
    id: row.id,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    kind: row.kind,
    targetId: row.target_id,
    includeTranscripts: row.include_transcripts,
    redactPii: row.redact_pii,
    expiresAt: row.expires_at,
  };
}

/**
 * Records one read, in the same statement checking that the link still works: a revocation that
 * committed while the content was being read refuses it (410), so a revoked link shows nothing
 * from the moment the revocation is committed.
 */
export async function recordOpen(em: EntityManager, linkId: string): Promise<void> {
  const row = await recordLinkOpen.first(em, { linkId });
  if (!row) throw linkGone('revoked');
}
