import { defineQuery } from '../../db/query.js';
import { sql } from '../../db/sql.js';

/** The organization's row lock that serializes changes to its owners (see assertAnotherOwnerRemains). */
export const lockOrganizationForOwnerChange = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId }: { organizationId: string }) => sql`select id from organizations where id = ${organizationId} for no key update`,
  example: { organizationId: 'org_example' },
});

/** Active owners of the organization other than `memberId`. */
export const otherActiveOwnerCount = defineQuery({
  columns: { count: 'bigint' },
  statement: ({ organizationId, memberId }: { organizationId: string; memberId: string }) =>
    sql`select count(*) as count from members where organization_id = ${organizationId} and role = 'owner' and status = 'active' and id <> ${memberId}`,
  example: { organizationId: 'org_example', memberId: 'mem_example' },
});

/** Removes a member; their member sessions (and refresh tokens) cascade. */
export const deleteMember = defineQuery({
  columns: {},
  statement: ({ memberId }: { memberId: string }) => sql`delete from members where id = ${memberId}`,
  example: { memberId: 'mem_example' },
});

/** Records how the invitation email went, unless the invitation was replaced meanwhile (its hash changed). */
export const recordInvitationEmailStatus = defineQuery({
  columns: {},
  statement: ({ memberId, tokenHash, status }: { memberId: string; tokenHash: string | null; status: 'sent' | 'failed' }) =>
    sql`update members set invitation_email_status = ${status}, updated_at = now() where id = ${memberId} and invitation_token_hash = ${tokenHash}`,
  example: { memberId: 'mem_example', tokenHash: 'example-hash' as string | null, status: 'sent' as 'sent' | 'failed' },
});

/** Accepts an open invitation once: of two concurrent acceptances, exactly one gets its id back. */
export const acceptOpenInvitation = defineQuery({
  columns: { id: 'text' },
  statement: ({ memberId, tokenHash, passwordHash, name }: { memberId: string; tokenHash: string; passwordHash: string; name: string | null }) =>
    sql`update members set status = 'active', password_hash = ${passwordHash}, name = coalesce(${name}, name), invitation_token_hash = null,
         invitation_expires_at = null, updated_at = now()
       where id = ${memberId} and invitation_token_hash = ${tokenHash} and status = 'invited' and invitation_expires_at > now() returning id`,
  example: { memberId: 'mem_example', tokenHash: 'example-hash', passwordHash: 'example-password-hash', name: null as string | null },
});
