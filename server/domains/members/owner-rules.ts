import type { CustomerAuth } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type MemberRole, ROLE_PERMISSIONS } from '../../../shared/members.js';
import type { Member } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { lockOrganizationForOwnerChange, otherActiveOwnerCount } from './queries.js';

/** Who changes the members: an API key or member (their organization and permissions), or the admin CLI (every permission). */
export type MembersActor = Pick<CustomerAuth, 'organizationId' | 'permissions'>;

/**
 * A caller gives, changes or takes away only a role whose permissions it holds itself: an owner
 * (or a key with every permission) manages every role, an admin every role but owner, and a key
 * with `organization:write` alone none (it cannot make an admin who would then mint keys).
 */
export function assertMayManageRole(actor: MembersActor, role: MemberRole): void {
  const missing = ROLE_PERMISSIONS[role].filter((permission) => !actor.permissions.includes(permission));
  if (missing.length > 0) {
    throw new AppError(
      'INSUFFICIENT_PERMISSIONS',
      `Only a caller holding every permission of the ${role} role can give, change or remove it; missing: ${missing.join(', ')}.`,
      {
        required: role,
        missing,
      },
    );
  }
}

/**
 * Takes the organization's row lock, so two concurrent changes cannot each remove "one of two"
 * owners; then refuses to leave the organization without an active owner. An invited owner can
 * always be withdrawn: they never held the role.
 */
export async function assertAnotherOwnerRemains(tx: EntityManager, member: Member): Promise<void> {
  await lockOrganizationForOwnerChange.rows(tx, { organizationId: member.organization.id });
  if (member.role !== 'owner' || member.status !== 'active') return;
  const row = await otherActiveOwnerCount.first(tx, { organizationId: member.organization.id, memberId: member.id });
  if (Number(row?.count ?? 0) === 0) {
    throw new AppError('LAST_OWNER', 'This is the last owner of the organization: make another member owner first.', { memberId: member.id });
  }
}
