import type { Page } from '../../../shared/schemas/common.js';
import type { TListMembersInput, TMember } from '../../../shared/schemas/members.js';
import { Member } from '../../entities/index.js';
import { findPage, NEWEST_FIRST, pageFrom } from '../common/keyset-page.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { toMemberDto } from './serialize.js';

/** `GET /v1/organization/members`: members and invitations, oldest first, in the pagination envelope every list answers. */
export async function listMembers({ em }: Pick<Deps, 'em'>, caller: Caller, input: TListMembersInput): Promise<Page<TMember>> {
  const page = await findPage(em, Member, { organization: caller.organizationId }, input, { ...NEWEST_FIRST, direction: 'asc' }, { disableIdentityMap: true });
  return pageFrom(page, page.items.map(toMemberDto));
}
