import type { EntityManager } from '@mikro-orm/postgresql';
import { Member } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { assertAnotherOwnerRemains, assertMayManageRole, type MembersActor } from './owner-rules.js';

/**
 * `DELETE /v1/organization/members/{id}`: the member, their invitation and every sign-in go (the
 * member sessions cascade), so their access tokens stop working on the next request.
 */
export async function removeMember(em: EntityManager, actor: MembersActor, memberId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const member = await tx.findOne(Member, { id: memberId, organization: actor.organizationId });
    if (!member) throw notFound('member', memberId);
    assertMayManageRole(actor, member.role);
    if (member.role === 'owner') await assertAnotherOwnerRemains(tx, member);
    await tx.execute(`delete from members where id = ?`, [member.id]);
  });
}
