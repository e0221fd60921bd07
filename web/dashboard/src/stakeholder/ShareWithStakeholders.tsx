import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { type RouterOutputs, useTRPC } from '../trpc';
import { ErrorNote, formatDate, formatDateTime, Loading, ShownOnce } from '../ui';

export type StakeholderTarget = { kind: 'campaign' | 'collection' | 'session'; id: string };
type Link = RouterOutputs['stakeholderLinks']['list']['data'][number];

const TRANSCRIPT_LABELS = {
  campaign: "Include the sessions' transcripts",
  collection: 'Include the whole answer each quote comes from',
  session: 'Include the transcript',
} as const;

const WHAT = { campaign: "this campaign's results", collection: 'this collection', session: 'this interview' } as const;

/** A link's state in words (never by colour alone). */
export function LinkStatus({ link }: { link: Pick<Link, 'status' | 'revokedAt' | 'expiresAt'> }) {
  if (link.status === 'revoked') return <span className="badge status-disabled">revoked {formatDate(link.revokedAt)}</span>;
  if (link.status === 'expired') return <span className="badge status-disabled">expired {formatDate(link.expiresAt)}</span>;
  return <span className="badge status-enabled">active</span>;
}

/** What a link shows, in words. */
export function linkTerms(link: Pick<Link, 'includeTranscripts' | 'redactPii'>): string {
  return `${link.includeTranscripts ? 'with transcripts' : 'no transcripts'}, ${link.redactPii ? 'PII redacted' : 'PII shown'}`;
}

/** The revoke button: the link stops working as soon as the server answers. */
export function RevokeButton({ link, onRevoked }: { link: Link; onRevoked: () => void }) {
  const trpc = useTRPC();
  const revoke = useMutation(trpc.stakeholderLinks.revoke.mutationOptions({ onSuccess: onRevoked }));
  if (link.status !== 'active') return null;
  return (
    <>
      <button
        type="button"
        className="danger secondary small"
        disabled={revoke.isPending}
        onClick={() => {
          if (window.confirm('Revoke this link? Anyone who opens it from now on sees that it was revoked.')) revoke.mutate({ linkId: link.id });
        }}
      >
        Revoke<span className="visually-hidden"> the link created {formatDateTime(link.createdAt)}</span>
      </button>
      <ErrorNote error={revoke.error} />
    </>
  );
}

/**
 * "Share with stakeholders": a read-only link to a campaign's results, a collection or a session,
 * for people without an account. The researcher picks transcripts or not, PII redacted or not, and
 * the expiry; the URL is shown once. Below, the target's links with who made them, their expiry and
 * how often they were opened, each revocable at once.
 */
export function ShareWithStakeholders({ target }: { target: StakeholderTarget }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [includeTranscripts, setIncludeTranscripts] = useState(target.kind !== 'campaign');
  const [redactPii, setRedactPii] = useState(true);
  const [days, setDays] = useState('30');
  const links = useQuery(trpc.stakeholderLinks.list.queryOptions({ kind: target.kind, targetId: target.id, limit: 100 }));
  const refresh = () => void queryClient.invalidateQueries(trpc.stakeholderLinks.pathFilter());
  const create = useMutation(trpc.stakeholderLinks.create.mutationOptions({ onSuccess: refresh }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ target, includeTranscripts, redactPii, expiresInDays: Number(days) });
  };
  return (
    <section aria-labelledby={`${id}-title`} className="panel stakeholder-share">
      <h2 id={`${id}-title`}>Share with stakeholders</h2>
      <p className="muted small">
        A read-only link to {WHAT[target.kind]} that works without an account, until it expires or you revoke it. Each opening is recorded.
      </p>
      <form onSubmit={submit}>
        <label className="choice">
          <input type="checkbox" checked={includeTranscripts} onChange={(event) => setIncludeTranscripts(event.target.checked)} />{' '}
          {TRANSCRIPT_LABELS[target.kind]}
        </label>
        <label className="choice">
          <input type="checkbox" checked={redactPii} onChange={(event) => setRedactPii(event.target.checked)} /> Redact personal data (emails, phone numbers,
          names; no participant named)
        </label>
        <label htmlFor={`${id}-days`}>Expires after (days, 1 to 365)</label>
        <input id={`${id}-days`} type="number" inputMode="numeric" min={1} max={365} required value={days} onChange={(event) => setDays(event.target.value)} />
        <ErrorNote error={create.error} />
        <button type="submit" disabled={create.isPending}>
          Create a link
        </button>
      </form>
      {create.data && <ShownOnce label="The link for stakeholders" value={create.data.url} />}
      <h3>Links to {WHAT[target.kind]}</h3>
      <ErrorNote error={links.error} />
      {links.isPending ? (
        <Loading what="Loading the links" />
      ) : links.data?.data.length === 0 ? (
        <p className="muted">No link yet.</p>
      ) : (
        // A card per link on a phone: five columns do not fit 390 px.
        <div className="table-wrap">
          <table className="stacked">
            <caption className="visually-hidden">Stakeholder links to {WHAT[target.kind]}</caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Shows</th>
                <th scope="col">Expires</th>
                <th scope="col">Opened</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {links.data?.data.map((link) => (
                <tr key={link.id}>
                  <td data-label="Created">
                    {formatDateTime(link.createdAt)}
                    <br />
                    <span className="muted small">by {link.createdBy.name}</span>
                  </td>
                  <td data-label="Shows">{linkTerms(link)}</td>
                  <td data-label="Expires">{formatDate(link.expiresAt)}</td>
                  <td data-label="Opened">
                    {link.openCount} {link.openCount === 1 ? 'time' : 'times'}
                    {link.lastOpenedAt && (
                      <span className="muted small">
                        <br />
                        last {formatDateTime(link.lastOpenedAt)}
                      </span>
                    )}
                  </td>
                  <td data-label="Status">
                    <LinkStatus link={link} /> <RevokeButton link={link} onRevoked={refresh} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
