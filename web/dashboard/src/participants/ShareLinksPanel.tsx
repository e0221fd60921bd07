import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { TShareLink } from '../../../../shared/schemas/share-links';
import { ZCreateShareLinkInput } from '../../../../shared/schemas/share-links';
import { ConfirmButton } from '../campaigns/ConfirmButton';
import { FieldError, fieldMessages, Problem } from '../campaigns/problems';
import { type RouterInputs, useTRPC } from '../trpc';
import { copyText } from '../clipboard';
import { formatDateTime, Pager } from '../ui';

type CreateShareLink = RouterInputs['shareLinks']['create'];

/** Share links: one public URL many participants can use, with a cap and an expiry. */
export function ShareLinksPanel({ campaignId, active }: { campaignId: string; active: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const links = useQuery(trpc.shareLinks.list.queryOptions({ campaignId, limit: 100 }));
  const invalidate = () => void queryClient.invalidateQueries(trpc.shareLinks.pathFilter());
  const create = useMutation(trpc.shareLinks.create.mutationOptions({ onSuccess: invalidate }));
  const close = useMutation(trpc.shareLinks.close.mutationOptions({ onSuccess: invalidate }));
  const [cap, setCap] = useState('');
  const [expiresIn, setExpiresIn] = useState('14d');
  const [local, setLocal] = useState<{ path: string; message: string }[]>([]);
  const [copied, setCopied] = useState<{ id: string; ok: boolean } | null>(null);
  const [showing, setShowing] = useState<string | null>(null);
  const messages = (path: string) => [...local.filter((field) => field.path === path).map((field) => field.message), ...fieldMessages(create.error, path)];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: CreateShareLink = {
      campaignId,
      ...(cap.trim() ? { maxRespondents: Number(cap) } : {}),
      ...(expiresIn.trim() ? { expiresIn: expiresIn.trim() } : {}),
    };
    const checked = ZCreateShareLinkInput.safeParse(input);
    const problems = checked.success ? [] : checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    setLocal(problems);
    if (problems.length === 0) create.mutate(input);
  };

  return (
    <>
      <form className="panel" onSubmit={submit} noValidate aria-labelledby="new-link-title">
        <h2 id="new-link-title">New share link</h2>
        <p className="muted small">
          Anyone with the link can take part, without an invite: post it in a newsletter or a community. Each visitor gets their own interview.
        </p>
        {!active && <p className="advice">The campaign is not active: resume it to create share links.</p>}
        <div className="two-columns">
          <div>
            <label htmlFor="link-cap">Most participants (optional)</label>
            <input id="link-cap" inputMode="numeric" value={cap} onChange={(event) => setCap(event.target.value)} aria-describedby="link-cap-hint" />
            <p className="muted small" id="link-cap-hint">
              The link closes once this many have started. Empty: no cap.
            </p>
            <FieldError id="link-cap-error" messages={messages('maxRespondents')} />
          </div>
          <div>
            <label htmlFor="link-expires">Expires after (optional)</label>
            <input id="link-expires" value={expiresIn} onChange={(event) => setExpiresIn(event.target.value)} aria-describedby="link-expires-hint" />
            <p className="muted small" id="link-expires-hint">
              A number and m, h, d or w, such as 14d. Empty: the link does not expire.
            </p>
            <FieldError id="link-expires-error" messages={messages('expiresIn')} />
          </div>
        </div>
        <Problem error={create.error} />
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create the link'}
        </button>
      </form>

      <section aria-labelledby="links-title">
        <h2 id="links-title">Share links</h2>
        <Problem error={links.error ?? close.error} />
        {copied && (
          <p role="status" className={copied.ok ? 'success' : 'error'}>
            {copied.ok ? 'The link is copied.' : 'The link could not be copied: select it and copy it by hand.'}
          </p>
        )}
        {!links.data ? (
          <p className="muted">Loading share links…</p>
        ) : links.data.data.length === 0 ? (
          <p>No share links yet.</p>
        ) : (
          <ul className="link-list">
            {links.data.data.map((link) => (
              <li key={link.id} className="panel share-link" data-share-link={link.id}>
                <label htmlFor={`link-url-${link.id}`}>Link ({link.status})</label>
                <div className="row">
                  <input id={`link-url-${link.id}`} readOnly value={link.url} className="mono" onFocus={(event) => event.currentTarget.select()} />
                  <button type="button" onClick={() => void copyText(link.url).then((ok) => setCopied({ id: link.id, ok }))}>
                    Copy<span className="visually-hidden"> the link</span>
                  </button>
                </div>
                <p className="muted small">
                  {respondentsText(link)} · {link.expiresAt ? `expires ${formatDateTime(link.expiresAt)}` : 'does not expire'}
                  {link.closedAt ? ` · closed ${formatDateTime(link.closedAt)}` : ''} · created {formatDateTime(link.createdAt)}
                </p>
                <div className="row">
                  <button
                    type="button"
                    className="secondary"
                    aria-expanded={showing === link.id}
                    onClick={() => setShowing(showing === link.id ? null : link.id)}
                  >
                    {showing === link.id ? 'Hide respondents' : 'See respondents'}
                  </button>
                  {link.status !== 'closed' && (
                    <ConfirmButton
                      label="Close the link"
                      title="Close this share link?"
                      confirmLabel="Close it"
                      danger
                      onConfirm={() => close.mutate({ shareLinkId: link.id })}
                    >
                      <p>Nobody new can start through it; interviews already started can be finished. Closing is final.</p>
                    </ConfirmButton>
                  )}
                </div>
                {showing === link.id && <Respondents campaignId={campaignId} shareLinkId={link.id} />}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function respondentsText(link: TShareLink): string {
  const started = `${link.respondents} started`;
  return link.maxRespondents === null ? `${started} (no cap)` : `${started} of at most ${link.maxRespondents}`;
}

/** The invites visits to the link created: the respondents (started or finished) and visitors who have not started. */
function Respondents({ campaignId, shareLinkId }: { campaignId: string; shareLinkId: string }) {
  const trpc = useTRPC();
  const [offset, setOffset] = useState(0);
  const invites = useQuery(trpc.invites.list.queryOptions({ campaignId, shareLinkId, limit: 25, offset }));
  if (invites.error) return <Problem error={invites.error} />;
  if (!invites.data) return <p className="muted">Loading respondents…</p>;
  const page = invites.data;
  if (page.data.length === 0) return <p>Nobody has opened this link yet.</p>;
  return (
    <>
      <div className="table-wrap">
        <table className="stacked">
          <caption>Visitors of this link</caption>
          <thead>
            <tr>
              <th scope="col">Opened</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col">Completed</th>
            </tr>
          </thead>
          <tbody>
            {page.data.map((invite) => (
              <tr key={invite.id}>
                <td data-label="Opened">{formatDateTime(invite.createdAt)}</td>
                <td data-label="Status">{invite.status}</td>
                <td data-label="Started">{formatDateTime(invite.startedAt)}</td>
                <td data-label="Completed">{formatDateTime(invite.completedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page.pagination.total > 25 && <Pager offset={offset} pageSize={25} shown={page.data.length} pagination={page.pagination} onOffset={setOffset} />}
    </>
  );
}
