import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '../router';
import { type RouterOutputs, useTRPC } from '../trpc';
import { ErrorNote, formatDate, formatDateTime, Loading, PageHeading } from '../ui';
import { LinkStatus, linkTerms, RevokeButton } from './ShareWithStakeholders';

type StakeholderLink = RouterOutputs['stakeholderLinks']['list']['data'][number];

const KIND_LABELS = { campaign: 'Campaign results', collection: 'Collection', session: 'Interview' } as const;

/** Where the dashboard shows a link's target (a deleted one has no page). */
function targetPath(link: StakeholderLink): string {
  return { campaign: `/campaigns/${link.target.id}`, collection: `/collections/${link.target.id}`, session: `/sessions/${link.target.id}` }[link.target.kind];
}

/** The audit of one link: when it was read (nothing is kept about who read it). */
function Opens({ linkId }: { linkId: string }) {
  const trpc = useTRPC();
  const opens = useQuery(trpc.stakeholderLinks.opens.queryOptions({ linkId }));
  if (opens.error) return <ErrorNote error={opens.error} />;
  if (!opens.data) return <Loading what="Loading the openings" />;
  if (opens.data.opens.length === 0) return <p className="muted small">Never opened.</p>;
  return (
    <>
      <p className="muted small">
        Opened {opens.data.openCount} {opens.data.openCount === 1 ? 'time' : 'times'}
        {opens.data.openCount > opens.data.opens.length ? `; the latest ${opens.data.opens.length}:` : ':'}
      </p>
      <ol className="small">
        {opens.data.opens.map((open, index) => (
          <li key={index}>{formatDateTime(open.openedAt)}</li>
        ))}
      </ol>
    </>
  );
}

/**
 * Every stakeholder link of the organization (active, expired, revoked), newest first: what it
 * shares and on what terms, who made it, and when it was opened. Links are created from the page
 * of what they share.
 */
export function StakeholderLinksView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const links = useQuery(trpc.stakeholderLinks.list.queryOptions({ limit: 50, ...(cursor ? { cursor } : {}) }));
  const refresh = () => void queryClient.invalidateQueries(trpc.stakeholderLinks.pathFilter());
  return (
    <>
      <PageHeading title="Stakeholder links" />
      <p className="muted">
        Read-only links to a campaign's results, a collection or an interview, for people without an account. Create one from “Share with stakeholders” on what
        you want to share. Each opening is recorded with its time only.
      </p>
      <ErrorNote error={links.error} />
      {links.isPending ? (
        <Loading what="Loading the links" />
      ) : links.data?.data.length === 0 ? (
        <p>No stakeholder link yet.</p>
      ) : (
        <ul className="cards">
          {links.data?.data.map((link) => (
            <li key={link.id} className="card">
              <h2>
                {KIND_LABELS[link.target.kind]}:{' '}
                {link.target.name === null ? <span className="muted">deleted</span> : <Link to={targetPath(link)}>{link.target.name}</Link>}
              </h2>
              <p className="small">
                <LinkStatus link={link} /> · {linkTerms(link)} · expires {formatDate(link.expiresAt)}
              </p>
              <p className="muted small">
                Created by {link.createdBy.name} ({link.createdBy.kind === 'member' ? 'member' : 'API key'}), {formatDateTime(link.createdAt)} · opened{' '}
                {link.openCount} {link.openCount === 1 ? 'time' : 'times'}
                {link.lastOpenedAt ? `, last ${formatDateTime(link.lastOpenedAt)}` : ''}
              </p>
              <details>
                <summary>When it was opened</summary>
                <Opens linkId={link.id} />
              </details>
              <RevokeButton link={link} onRevoked={refresh} />
            </li>
          ))}
        </ul>
      )}
      <div className="pager">
        {cursor && (
          <button type="button" className="secondary" onClick={() => setCursor(undefined)}>
            Newest links
          </button>
        )}
        {links.data?.nextCursor && (
          <button type="button" className="secondary" onClick={() => setCursor(links.data.nextCursor ?? undefined)}>
            Older links
          </button>
        )}
      </div>
    </>
  );
}
