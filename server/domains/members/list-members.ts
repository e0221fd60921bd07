import type { EntityManager } from '@mikro-orm/postgresql';
import type { TMember } from '../../../shared/schemas/members.js';
import { Member } from '../../entities/index.js';
import { toMemberDto } from './serialize.js';

/** `GET /v1/organization/members`: every member and invitation, oldest first (an organization has few). */
export async function listMembers(em: EntityManager, organizationId: string): Promise<{ data: TMember[] }> {
  const members = await em.find(Member, { organization: organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return { data: members.map(toMemberDto) };
}
