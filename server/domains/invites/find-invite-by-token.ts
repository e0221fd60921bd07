import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Invite } from '../../entities/index.js';
import { hashInviteToken, isWellFormedInviteToken } from '../../lib/invite-tokens.js';

/** The invite a participant token belongs to, or null (malformed, unknown). Cancelled invites are returned: callers decide. */
export async function findInviteByToken(em: EntityManager, token: string, options: { lockMode?: LockMode } = {}): Promise<Invite | null> {
  if (!isWellFormedInviteToken(token)) return null;
  return em.findOne(
    Invite,
    { tokenHash: hashInviteToken(token) },
    { populate: ['campaign', 'organization'], ...(options.lockMode ? { lockMode: options.lockMode, refresh: true } : {}) },
  );
}
