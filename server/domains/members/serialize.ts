import type { TMember } from '../../../shared/schemas/members.js';
import type { Member } from '../../entities/index.js';

export function toMemberDto(member: Member): TMember {
  return {
    id: member.id,
    email: member.email,
    name: member.name ?? null,
    role: member.role,
    status: member.status,
    invitationExpiresAt: member.status === 'invited' ? (member.invitationExpiresAt?.toISOString() ?? null) : null,
    lastSignInAt: member.lastSignInAt?.toISOString() ?? null,
    createdAt: member.createdAt.toISOString(),
    updatedAt: member.updatedAt.toISOString(),
  };
}
