import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ROLE_PERMISSIONS } from '../../../../shared/members';
import { type Permission, PERMISSIONS } from '../../../../shared/permissions';
import { useAuth } from '../auth';
import { useTRPC } from '../trpc';
import { ErrorNote, formatDateTime, Loading, PageHeading, ShownOnce } from '../ui';

export function ApiKeysView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKeys.list.queryOptions({}));
  const { session } = useAuth();
  // A key never holds a permission its maker lacks: only the signed-in member's are offered.
  const grantable = PERMISSIONS.filter((permission) => session !== null && ROLE_PERMISSIONS[session.member.role].includes(permission));
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>(['campaigns:read', 'sessions:read']);
  const [mode, setMode] = useState<'live' | 'test'>('live');
  const invalidate = () => void queryClient.invalidateQueries(trpc.apiKeys.pathFilter());
  const create = useMutation(trpc.apiKeys.create.mutationOptions({ onSuccess: invalidate }));
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: invalidate }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, permissions, mode });
  };

  return (
    <>
      <PageHeading title="API keys" />
      <p className="muted">
        Keys let your own systems call the API. A key never holds a permission you lack. A test key (<code>isk_test_…</code>) works in a separate test world:
        its studies, interviews, webhooks and results never mix with live ones, its interviews cost no credits and its emails stay in the outbox.
      </p>
      <ErrorNote error={keys.error ?? revoke.error} />
      {keys.isPending ? (
        <Loading />
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Mode</th>
                <th scope="col">Permissions</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data?.data.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{key.name}</th>
                  <td className="mono key-hint">{key.hint}</td>
                  <td>{key.mode === 'test' ? <span className="badge">test</span> : 'live'}</td>
                  <td className="small">{key.permissions.join(', ')}</td>
                  <td>{formatDateTime(key.lastUsedAt)}</td>
                  <td>{key.revokedAt ? `revoked ${formatDateTime(key.revokedAt)}` : 'active'}</td>
                  <td>
                    {!key.revokedAt && (
                      <button
                        type="button"
                        className="danger secondary"
                        onClick={() => {
                          if (window.confirm(`Revoke the key “${key.name}”? Calls with it stop working at once.`)) revoke.mutate({ apiKeyId: key.id });
                        }}
                      >
                        Revoke<span className="visually-hidden"> {key.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={submit} className="panel">
        <h2>New key</h2>
        <label htmlFor="key-name">Name</label>
        <input id="key-name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} />
        <fieldset>
          <legend>Mode</legend>
          <label className="choice">
            <input type="radio" name="key-mode" value="live" checked={mode === 'live'} onChange={() => setMode('live')} /> Live
          </label>
          <label className="choice">
            <input type="radio" name="key-mode" value="test" checked={mode === 'test'} onChange={() => setMode('test')} /> Test: a separate test world, no
            credits spent
          </label>
        </fieldset>
        <fieldset className="permissions">
          <legend>Permissions</legend>
          {grantable.map((permission) => (
            <label key={permission} className="choice">
              <input
                type="checkbox"
                checked={permissions.includes(permission)}
                onChange={(event) => setPermissions(event.target.checked ? [...permissions, permission] : permissions.filter((item) => item !== permission))}
              />{' '}
              <code>{permission}</code>
            </label>
          ))}
        </fieldset>
        <ErrorNote error={create.error} />
        <button type="submit" disabled={create.isPending || !name.trim() || permissions.length === 0}>
          Create key
        </button>
        {create.data && <ShownOnce label={`The key “${create.data.apiKey.name}”`} value={create.data.secret} />}
      </form>
    </>
  );
}
