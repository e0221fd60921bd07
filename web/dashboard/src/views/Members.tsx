import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useAuth } from '../auth';
import { MEMBER_ROLES, type MemberRole } from '../../../../shared/members';
import { useTRPC } from '../trpc';
import { ErrorNote, formatDateTime, Loading, PageHeading } from '../ui';

export function MembersView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { session } = useAuth();
  const members = useQuery(trpc.members.list.queryOptions({ limit: 100 }));
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<MemberRole>('member');
  const invalidate = () => void queryClient.invalidateQueries(trpc.members.pathFilter());
  const invite = useMutation(
    trpc.members.invite.mutationOptions({
      onSuccess: () => {
        setEmail('');
        setName('');
        invalidate();
      },
    }),
  );
  const update = useMutation(trpc.members.update.mutationOptions({ onSuccess: invalidate }));
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: invalidate }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email, role, ...(name.trim() ? { name: name.trim() } : {}) });
  };

  return (
    <>
      <PageHeading title="Members" />
      <ErrorNote error={members.error ?? update.error ?? remove.error} />
      {members.isPending ? (
        <Loading />
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Members and invitations</caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data?.data.map((member) => (
                <tr key={member.id}>
                  <th scope="row">
                    {member.name ?? member.email}
                    {member.name && <span className="muted small"> {member.email}</span>}
                    {member.id === session?.member.id && <span className="muted small"> (you)</span>}
                  </th>
                  <td>
                    <label className="visually-hidden" htmlFor={`role-${member.id}`}>
                      Role of {member.email}
                    </label>
                    <select
                      id={`role-${member.id}`}
                      value={member.role}
                      onChange={(event) => update.mutate({ memberId: member.id, role: event.target.value as MemberRole })}
                    >
                      {MEMBER_ROLES.map((option) => (
                        <option key={option} value={option}>
                          {option}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>{member.status === 'invited' ? `invited, until ${formatDateTime(member.invitationExpiresAt)}` : 'active'}</td>
                  <td>{formatDateTime(member.lastSignInAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="danger secondary"
                      onClick={() => {
                        if (window.confirm(`Remove ${member.email} from the organization?`)) remove.mutate({ memberId: member.id });
                      }}
                    >
                      Remove<span className="visually-hidden"> {member.email}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={submit} className="panel">
        <h2>Invite a colleague</h2>
        <label htmlFor="invite-email">Email</label>
        <input id="invite-email" type="email" value={email} onChange={(event) => setEmail(event.target.value)} required />
        <label htmlFor="invite-name">Name (optional)</label>
        <input id="invite-name" value={name} onChange={(event) => setName(event.target.value)} maxLength={100} />
        <label htmlFor="invite-role">Role</label>
        <select id="invite-role" value={role} onChange={(event) => setRole(event.target.value as MemberRole)}>
          {MEMBER_ROLES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
        <ErrorNote error={invite.error} />
        <button type="submit" disabled={invite.isPending}>
          Send invitation
        </button>
        {invite.isSuccess && <p role="status">Invitation sent by email (the link works for 7 days).</p>}
      </form>
    </>
  );
}
