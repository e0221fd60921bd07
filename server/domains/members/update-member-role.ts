import type { MemberRole } from '../../../shared/members.js';
import type { TMember } from '../../../shared/schemas/members.js';
import { Member } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Deps } from '../common/deps.js';
import { assertAnotherOwnerRemains, assertMayManageRole, type MembersActor } from './owner-rules.js';
import { toMemberDto } from './serialize.js';

/** `PATCH /v1/organization/members/{id}`: a new role, effective on the member's next request. */
export async function updateMemberRole({ em }: Pick<Deps, 'em'>, actor: MembersActor, input: { memberId: string; role: MemberRole }): Promise<TMember> {
  const { memberId, role } = input;
  return em.transactional(async (tx) => {
    const member = await tx.findOne(Member, { id: memberId, organization: actor.organizationId });
    if (!member) throw notFound('member', memberId);
    if (member.role === role) return toMemberDto(member);
    assertMayManageRole(actor, member.role);
    assertMayManageRole(actor, role);
    if (member.role === 'owner') await assertAnotherOwnerRemains(tx, member);
    member.role = role;
    await tx.flush();
    return toMemberDto(member);
  });
}
