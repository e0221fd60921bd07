import type { EntityManager } from '@mikro-orm/postgresql';
import { holdsAllPermissions } from '../../../shared/members.js';
import type { Member } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import type { CustomerAuth } from '../../trpc/context.js';

/** Who changes the members: an API key or member (their organization and permissions), or the admin CLI (every permission). */
export type MembersActor = Pick<CustomerAuth, 'organizationId' | 'permissions'>;

/**
 * Owners hold billing:write, so only a caller holding every permission (an owner, or a key with
 * all of them) may make, change or remove one: an admin cannot raise themselves above admin.
 */
export function assertMayManageOwners(actor: MembersActor): void {
  if (!holdsAllPermissions(actor.permissions)) {
    throw new AppError('INSUFFICIENT_PERMISSIONS', 'Only an owner (or a key with every permission) can make, change or remove an owner.', {
      required: 'owner',
    });
  }
}

/**
 * Takes the organization's row lock, so two concurrent changes cannot each remove "one of two"
 * owners; then refuses to leave the organization without an active owner. An invited owner can
 * always be withdrawn: they never held the role.
 */
export async function assertAnotherOwnerRemains(tx: EntityManager, member: Member): Promise<void> {
  await tx.execute(`select id from organizations where id = ? for no key update`, [member.organization.id]);
  if (member.role !== 'owner' || member.status !== 'active') return;
  const [row] = await tx.execute<{ count: string }[]>(
    `select count(*) as count from members where organization_id = ? and role = 'owner' and status = 'active' and id <> ?`,
    [member.organization.id, member.id],
  );
  if (Number(row?.count ?? 0) === 0) {
    throw new AppError('LAST_OWNER', 'This is the last owner of the organization: make another member owner first.', { memberId: member.id });
  }
}
