import type { LockMode } from '@mikro-orm/core';
import { Invite } from '../../entities/index.js';
import type { Deps } from '../common/deps.js';
import { hashInviteToken, isWellFormedInviteToken } from '../../lib/invite-tokens.js';
import { inviteCredentialByTokenHash } from './queries.js';

/** What the authentication of a participant needs of their invite: one indexed row and its organization's mode. */
export interface InviteCredential {
  id: string;
  organizationId: string;
  status: Invite['status'];
  /** Made by a visit to a share link (public by design), not addressed to one person. */
  viaShareLink: boolean;
  /** False: the invite is of a test world (test mode). */
  livemode: boolean;
}

/** The invite of a participant token, lean (null: malformed or unknown); cancelled ones are returned, callers decide. */
// No caller: the token finds it (and with it the organization).
export async function findInviteCredential({ em }: Pick<Deps, 'em'>, { token }: { token: string }): Promise<InviteCredential | null> {
  if (!isWellFormedInviteToken(token)) return null;
  const row = await inviteCredentialByTokenHash.first(em, { tokenHash: hashInviteToken(token) });
  // The column holds what the schema allows (a check constraint).
  return row
    ? { id: row.id, organizationId: row.organization_id, status: row.status as Invite['status'], viaShareLink: row.via_share_link, livemode: row.livemode }
    : null;
}

/** The invite a participant token belongs to, or null (malformed, unknown). Cancelled invites are returned: callers decide. */
// No caller: the token finds it (and with it the organization).
export async function findInviteByToken({ em }: Pick<Deps, 'em'>, { token, ...options }: { token: string; lockMode?: LockMode }): Promise<Invite | null> {
  if (!isWellFormedInviteToken(token)) return null;
  return em.findOne(
    Invite,
    { tokenHash: hashInviteToken(token) },
    { populate: ['campaign', 'organization'], ...(options.lockMode ? { lockMode: options.lockMode, refresh: true } : {}) },
  );
}
