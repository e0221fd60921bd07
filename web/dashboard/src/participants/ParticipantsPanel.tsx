import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { INTERVIEW_LANGUAGES } from '../../../../shared/languages';
import { INVITE_STATUSES, ZCreateInviteInput } from '../../../../shared/schemas/invites';
import { useAuth } from '../auth';
import { copyText } from '../clipboard';
import { ConfirmButton } from '../campaigns/ConfirmButton';
import { FieldError, fieldMessages, Problem } from '../campaigns/problems';
import { type RouterInputs, useTRPC, useTRPCClient } from '../trpc';
import { formatDateTime, metadataText, Pager } from '../ui';
import { countOf } from '../words';
import { type UploadProgress, uploadInvites } from './bulk-upload';
import { type InviteFile, readInviteFile } from './csv-invites';

const PAGE = 25;

/** Invites of a campaign: one by one, from a CSV file, and the list with resend and cancel. */
export function ParticipantsPanel({ campaignId, active }: { campaignId: string; active: boolean }) {
  return (
    <>
      {!active && (
        <p className="advice" role="note">
          The campaign is not active: new invites are refused until it is resumed.
        </p>
      )}
      {/* Remounted when the campaign is paused or resumed: a refusal from before does not linger. */}
      <AddInviteForm key={String(active)} campaignId={campaignId} />
      <CsvImport campaignId={campaignId} />
      <InviteList campaignId={campaignId} />
    </>
  );
}

type CreateInvite = RouterInputs['invites']['create'];

function AddInviteForm({ campaignId }: { campaignId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('');
  const [sendEmail, setSendEmail] = useState(true);
  const [metadata, setMetadata] = useState<{ key: string; value: string }[]>([]);
  const [local, setLocal] = useState<{ path: string; message: string }[]>([]);
  const create = useMutation(
    trpc.invites.create.mutationOptions({
      onSuccess: () => {
        setEmail('');
        setName('');
        setMetadata([]);
        void queryClient.invalidateQueries(trpc.invites.pathFilter());
        void queryClient.invalidateQueries(trpc.campaigns.pathFilter());
      },
    }),
  );
  const messages = (path: string) => [
    ...local.filter((field) => field.path === path || field.path.startsWith(`${path}.`)).map((field) => field.message),
    ...fieldMessages(create.error, path),
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: CreateInvite = {
      campaignId,
      email: email.trim(),
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(language ? { language } : {}),
      sendEmail,
      ...(metadata.some((pair) => pair.key.trim())
        ? { metadata: Object.fromEntries(metadata.filter((pair) => pair.key.trim()).map((pair) => [pair.key.trim(), pair.value])) }
        : {}),
    };
    // The API's own schema first: the same messages, beside the fields, before anything is sent.
    const checked = ZCreateInviteInput.safeParse(input);
    const problems = checked.success ? [] : checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    setLocal(problems);
    if (problems.length === 0) create.mutate(input);
  };

  return (
    <form className="panel add-invite" onSubmit={submit} noValidate aria-labelledby="add-invite-title">
      <h2 id="add-invite-title">Invite one participant</h2>
      <label htmlFor="invite-email">Email</label>
      <input
        id="invite-email"
        type="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        aria-describedby={messages('email').length ? 'invite-email-error' : undefined}
      />
      <FieldError id="invite-email-error" messages={messages('email')} />
      <label htmlFor="invite-name">Name (optional)</label>
      <input id="invite-name" value={name} onChange={(event) => setName(event.target.value)} />
      <FieldError id="invite-name-error" messages={messages('name')} />
      <label htmlFor="invite-language">Language</label>
      <select id="invite-language" value={language} onChange={(event) => setLanguage(event.target.value)}>
        <option value="">The campaign's language</option>
        {INTERVIEW_LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
      <fieldset>
        <legend>Metadata (segments for the results)</legend>
        {metadata.map((pair, index) => (
          <div className="row metadata-pair" key={index}>
            <label className="visually-hidden" htmlFor={`invite-meta-key-${index}`}>
              Key {index + 1}
            </label>
            <input
              id={`invite-meta-key-${index}`}
              placeholder="key, e.g. plan"
              value={pair.key}
              onChange={(event) => setMetadata(metadata.map((item, at) => (at === index ? { ...item, key: event.target.value } : item)))}
            />
            <label className="visually-hidden" htmlFor={`invite-meta-value-${index}`}>
              Value {index + 1}
            </label>
            <input
              id={`invite-meta-value-${index}`}
              placeholder="value, e.g. pro"
              value={pair.value}
              onChange={(event) => setMetadata(metadata.map((item, at) => (at === index ? { ...item, value: event.target.value } : item)))}
            />
            <button type="button" className="link danger" onClick={() => setMetadata(metadata.filter((_, at) => at !== index))}>
              Remove<span className="visually-hidden"> key {index + 1}</span>
            </button>
          </div>
        ))}
        <FieldError id="invite-metadata-error" messages={messages('metadata')} />
        <button type="button" className="secondary" onClick={() => setMetadata([...metadata, { key: '', value: '' }])}>
          Add a key
        </button>
      </fieldset>
      <label className="choice">
        <input type="checkbox" checked={sendEmail} onChange={(event) => setSendEmail(event.target.checked)} /> Send the invitation email
      </label>
      <Problem error={create.error} />
      {create.data && (
        <p role="status">
          Invited {create.data.email}. <span className="muted">Link: </span>
          <span className="mono">{create.data.inviteUrl}</span>
        </p>
      )}
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Inviting…' : 'Invite'}
      </button>
    </form>
  );
}

/** Every address already invited in the campaign (lowercase), read page by page; at most 20 000 are looked at. */
async function invitedEmails(client: ReturnType<typeof useTRPCClient>, campaignId: string): Promise<{ emails: Set<string>; complete: boolean }> {
  const emails = new Set<string>();
  for (let offset = 0; offset < 20_000; offset += 100) {
    const page = await client.invites.list.query({ campaignId, limit: 100, offset });
    for (const invite of page.data) if (invite.email && invite.status !== 'cancelled') emails.add(invite.email.toLowerCase());
    if (!page.pagination.hasMore) return { emails, complete: true };
  }
  return { emails, complete: false };
}

type Upload =
  | { state: 'idle' }
  | { state: 'sending'; progress: UploadProgress }
  | { state: 'done'; progress: UploadProgress }
  | { state: 'failed'; progress: UploadProgress; error: unknown };

/**
 * A CSV file of participants: read and checked in the browser with the API's schemas, shown as
 * a preview with each row's problems, and sent only when no row has one (rows can be removed
 * one by one). Large files go in batches of 500 with a progress bar; every batch is idempotent.
 */
function CsvImport({ campaignId }: { campaignId: string }) {
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  const { accessToken } = useAuth();
  const [fileName, setFileName] = useState('');
  const [file, setFile] = useState<InviteFile | null>(null);
  const [removed, setRemoved] = useState<Set<number>>(new Set());
  const [already, setAlready] = useState<{ emails: Set<string>; complete: boolean } | null>(null);
  const [skipAlready, setSkipAlready] = useState(true);
  const [sendEmail, setSendEmail] = useState(true);
  const [upload, setUpload] = useState<Upload>({ state: 'idle' });
  const [readError, setReadError] = useState<string | null>(null);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setUpload({ state: 'idle' });
    setRemoved(new Set());
    setReadError(null);
    if (!chosen) return;
    setFileName(chosen.name);
    try {
      setFile(readInviteFile(await chosen.text()));
      setAlready(await invitedEmails(client, campaignId));
    } catch (error) {
      setFile(null);
      setReadError(error instanceof Error ? error.message : String(error));
    }
    // The same file can be chosen again after it was fixed on disk.
    event.target.value = '';
  };

  const rows = (file?.rows ?? []).filter((row) => !removed.has(row.line));
  const bad = rows.filter((row) => row.problems.length > 0);
  const alreadyRows = rows.filter((row) => already?.emails.has(row.item.email.toLowerCase()));
  const toSend = rows.filter((row) => !(skipAlready && already?.emails.has(row.item.email.toLowerCase())));
  const blocked = !file || file.fileProblems.length > 0 || bad.length > 0 || toSend.length === 0 || upload.state === 'sending';

  const send = async (startAt = 0) => {
    const items = toSend.map((row) => row.item);
    let last: UploadProgress = { done: startAt, total: 0, invited: 0, replayed: 0 };
    try {
      last = await uploadInvites({
        campaignId,
        items,
        sendEmail,
        accessToken,
        startAt,
        onProgress: (progress) => {
          last = progress;
          setUpload({ state: 'sending', progress });
        },
      });
      setUpload({ state: 'done', progress: last });
    } catch (error) {
      setUpload({ state: 'failed', progress: last, error });
    } finally {
      void queryClient.invalidateQueries(trpc.invites.pathFilter());
      void queryClient.invalidateQueries(trpc.campaigns.pathFilter());
    }
  };

  const progress = upload.state === 'idle' ? null : upload.progress;
  return (
    <section className="panel" aria-labelledby="csv-title">
      <h2 id="csv-title">Import participants from a CSV file</h2>
      <p className="muted small">
        Columns <code>email</code> (required), <code>name</code> and <code>language</code>; every other column becomes metadata you can filter results by.
        Nothing is invited until every row is right.
      </p>
      <label htmlFor="csv-file">CSV file</label>
      <input id="csv-file" type="file" accept=".csv,text/csv" onChange={(event) => void choose(event)} />
      {readError && (
        <p className="error" role="alert">
          The file could not be read: {readError}
        </p>
      )}
      {file && (
        <div className="csv-preview">
          <p role="status">
            <strong>{fileName}</strong>: {countOf(rows.length, 'participant')}
            {bad.length > 0 ? `, ${bad.length} with problems` : ', all rows valid'}
            {file.metadataColumns.length > 0 ? `; metadata columns: ${file.metadataColumns.join(', ')}` : ''}.
          </p>
          {file.fileProblems.length > 0 && (
            <div className="error" role="alert">
              <ul>
                {file.fileProblems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            </div>
          )}
          {bad.length > 0 && (
            <div className="error" role="alert">
              <p>
                {bad.length} row{bad.length === 1 ? ' has' : 's have'} problems, so nobody is invited yet. Fix the file and choose it again, or remove the rows.
              </p>
              <ul className="row-problems">
                {bad.map((row) => (
                  <li key={row.line}>
                    Line {row.line} ({row.item.email || 'no email'}): {row.problems.map((problem) => `${problem.column} ${problem.message}`).join('; ')}{' '}
                    <button type="button" className="link danger" onClick={() => setRemoved(new Set([...removed, row.line]))}>
                      Remove line {row.line}
                    </button>
                  </li>
                ))}
              </ul>
              <button type="button" className="secondary" onClick={() => setRemoved(new Set([...removed, ...bad.map((row) => row.line)]))}>
                {bad.length === 1 ? 'Remove the row with problems' : `Remove all ${bad.length} rows with problems`}
              </button>
            </div>
          )}
          {alreadyRows.length > 0 && (
            <div className="advice" role="note">
              <p>
                {alreadyRows.length} address{alreadyRows.length === 1 ? ' is' : 'es are'} already invited to this campaign:{' '}
                {alreadyRows
                  .slice(0, 5)
                  .map((row) => row.item.email)
                  .join(', ')}
                {alreadyRows.length > 5 ? ` and ${alreadyRows.length - 5} more` : ''}.
              </p>
              <label className="choice">
                <input type="checkbox" checked={skipAlready} onChange={(event) => setSkipAlready(event.target.checked)} /> Leave them out (no second invite)
              </label>
            </div>
          )}
          {already && !already.complete && <p className="muted small">Only the first 20 000 invites of the campaign were compared with the file.</p>}
          <PreviewTable file={file} rows={rows} />
          <label className="choice">
            <input type="checkbox" checked={sendEmail} onChange={(event) => setSendEmail(event.target.checked)} /> Send the invitation emails
          </label>
          <div className="row">
            <button type="button" disabled={blocked} onClick={() => void send()}>
              {toSend.length === 0 ? 'Nobody to invite' : `Invite ${toSend.length} participant${toSend.length === 1 ? '' : 's'}`}
            </button>
          </div>
        </div>
      )}
      {progress && progress.total > 0 && (
        <div className="upload-progress">
          <label htmlFor="csv-progress">
            Sent {progress.done} of {progress.total} batch{progress.total === 1 ? '' : 'es'}
          </label>
          <progress id="csv-progress" max={progress.total} value={progress.done} />
        </div>
      )}
      {upload.state === 'done' && (
        <p role="status" className="success">
          {upload.progress.invited} participant{upload.progress.invited === 1 ? '' : 's'} invited.
          {upload.progress.replayed > 0
            ? ` ${upload.progress.replayed} batch${upload.progress.replayed === 1 ? ' was' : 'es were'} sent before: answered from the first import, nobody invited twice.`
            : ''}
        </p>
      )}
      {upload.state === 'failed' && (
        <>
          <Problem error={upload.error} />
          <p className="muted small">Batches already sent stay invited. Trying again sends the rest; a batch sent twice invites nobody twice.</p>
          <button type="button" onClick={() => void send(upload.progress.done)}>
            Try again
          </button>
        </>
      )}
    </section>
  );
}

function PreviewTable({ file, rows }: { file: InviteFile; rows: InviteFile['rows'] }) {
  // Rows with a problem always, then the first rows up to 20: enough to see the columns came out right.
  const bad = rows.filter((row) => row.problems.length > 0);
  const shown = [...bad, ...rows.filter((row) => row.problems.length === 0).slice(0, Math.max(0, 20 - bad.length))].sort((a, b) => a.line - b.line);
  return (
    <div className="table-wrap">
      <table className="stacked">
        <caption>
          Preview
          {rows.length > shown.length
            ? ` (${bad.length ? `every row with a problem and the first good ones: ${shown.length} of ${rows.length} rows` : `the first ${shown.length} of ${rows.length} rows`})`
            : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Email</th>
            <th scope="col">Name</th>
            <th scope="col">Language</th>
            {file.metadataColumns.length > 0 && <th scope="col">Metadata</th>}
            <th scope="col">Check</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr key={row.line} className={row.problems.length ? 'bad-row' : undefined}>
              <td data-label="Line">{row.line}</td>
              <td data-label="Email">{row.item.email || '—'}</td>
              <td data-label="Name">{row.item.name ?? '—'}</td>
              <td data-label="Language">{row.item.language ?? '—'}</td>
              {file.metadataColumns.length > 0 && (
                <td data-label="Metadata" className="small">
                  {metadataText(row.item.metadata)}
                </td>
              )}
              <td data-label="Check">{row.problems.length ? row.problems.map((problem) => `${problem.column} ${problem.message}`).join('; ') : 'ok'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function InviteList({ campaignId }: { campaignId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const [status, setStatus] = useState<(typeof INVITE_STATUSES)[number] | ''>('');
  const invites = useQuery(trpc.invites.list.queryOptions({ campaignId, limit: PAGE, offset, ...(status ? { status } : {}) }));
  const invalidate = () => void queryClient.invalidateQueries(trpc.invites.pathFilter());
  const resend = useMutation(trpc.invites.resend.mutationOptions({ onSuccess: invalidate }));
  const cancel = useMutation(trpc.invites.cancel.mutationOptions({ onSuccess: invalidate }));
  const [copied, setCopied] = useState<{ who: string; ok: boolean } | null>(null);
  const page = invites.data;
  return (
    <section aria-labelledby="invites-title">
      <h2 id="invites-title">Invites</h2>
      <div className="toolbar">
        <label htmlFor="invite-status">Status</label>
        <select
          id="invite-status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as typeof status);
            setOffset(0);
          }}
        >
          <option value="">All</option>
          {INVITE_STATUSES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </div>
      <Problem error={invites.error ?? resend.error ?? cancel.error} />
      {resend.data && <p role="status">The invitation email to {resend.data.email} is queued again.</p>}
      {cancel.data && <p role="status">The invite of {cancel.data.email ?? 'an anonymous participant'} is cancelled; its link no longer works.</p>}
      {copied && (
        <p role="status" className={copied.ok ? 'success' : 'error'}>
          {copied.ok ? `The interview link of ${copied.who} is copied.` : `The link of ${copied.who} could not be copied: your browser refused it.`}
        </p>
      )}
      {!page ? (
        <p className="muted">Loading invites…</p>
      ) : page.data.length === 0 ? (
        <p>No invites{status ? ` with status ${status}` : ''} yet.</p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="stacked">
              <caption className="visually-hidden">Invites of this campaign</caption>
              <thead>
                <tr>
                  <th scope="col">Participant</th>
                  <th scope="col">Status</th>
                  <th scope="col">Email status</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((invite) => (
                  <tr key={invite.id} data-invite={invite.email ?? invite.id}>
                    <th scope="row" data-label="Participant">
                      <span>
                        {invite.email ?? 'anonymous (share link)'}
                        {invite.name ? <span className="muted small"> · {invite.name}</span> : null}
                      </span>
                    </th>
                    <td data-label="Status">{invite.status}</td>
                    <td data-label="Email status">{invite.emailStatus.replace('_', ' ')}</td>
                    <td data-label="Expires">{formatDateTime(invite.expiresAt)}</td>
                    <td data-label="Actions" className="actions-cell">
                      <span>
                        {(invite.status === 'pending' || invite.status === 'started') && (
                          <button
                            type="button"
                            className="link"
                            onClick={() => void copyText(invite.inviteUrl).then((ok) => setCopied({ who: invite.email ?? 'the anonymous participant', ok }))}
                          >
                            Copy link<span className="visually-hidden"> of {invite.email ?? 'this participant'}</span>
                          </button>
                        )}
                        {invite.status === 'pending' && invite.email && (
                          <button type="button" className="link" disabled={resend.isPending} onClick={() => resend.mutate({ inviteId: invite.id })}>
                            Resend<span className="visually-hidden"> to {invite.email}</span>
                          </button>
                        )}
                        {(invite.status === 'pending' || invite.status === 'started') && (
                          <ConfirmButton
                            label="Cancel"
                            className="link danger"
                            title="Cancel this invite?"
                            confirmLabel="Cancel the invite"
                            danger
                            onConfirm={() => cancel.mutate({ inviteId: invite.id })}
                          >
                            <p>
                              The link of {invite.email ?? 'this participant'} stops working at once. This cannot be undone; you can invite the address again
                              later.
                            </p>
                          </ConfirmButton>
                        )}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager offset={offset} pageSize={PAGE} shown={page.data.length} pagination={page.pagination} onOffset={setOffset} />
        </>
      )}
    </section>
  );
}
