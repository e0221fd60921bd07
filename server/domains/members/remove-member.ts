import { Member } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Deps } from '../common/deps.js';
import { assertAnotherOwnerRemains, assertMayManageRole, type MembersActor } from './owner-rules.js';
import { deleteMember } from './queries.js';

/**
 * `DELETE /v1/organization/members/{id}`: the member, their invitation and every sign-in go (the
 * member sessions cascade), so their access tokens stop working on the next request.
 */
export async function removeMember({ em }: Pick<Deps, 'em'>, actor: MembersActor, input: { memberId: string }): Promise<void> {
  const { memberId } = input;
  await em.transactional(async (tx) => {
    const member = await tx.findOne(Member, { id: memberId, organization: actor.organizationId });
    if (!member) throw notFound('member', memberId);
    assertMayManageRole(actor, member.role);
    if (member.role === 'owner') await assertAnotherOwnerRemains(tx, member);
    await deleteMember.rows(tx, { memberId: member.id });
  });
}
