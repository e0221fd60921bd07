import type { MemberAuth } from '../common/caller.js';
import type { z } from 'zod';
import { ROLE_PERMISSIONS } from '../../../shared/members.js';
import type { ZMe } from '../../../shared/schemas/members.js';
import { Member } from '../../entities/index.js';
import type { Deps } from '../common/deps.js';

import { toMemberDto } from '../members/index.js';

/** `auth.me`: the signed-in member, their organization and what their role may do. */
export async function getSignedInMember({ em }: Pick<Deps, 'em'>, auth: MemberAuth): Promise<z.infer<typeof ZMe>> {
  const member = await em.findOneOrFail(Member, { id: auth.memberId }, { populate: ['organization'] });
  return {
    member: toMemberDto(member),
    organization: { id: member.organization.id, name: member.organization.name },
    permissions: [...ROLE_PERMISSIONS[member.role]],
  };
}
