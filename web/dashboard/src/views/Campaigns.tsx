import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BarChart } from '../charts';
import { Link } from '../router';
import { type RouterOutputs, useTRPC } from '../trpc';
import { ErrorNote, formatDateTime, formatDuration, Loading, PageHeading, SentimentBadge } from '../ui';

export function CampaignsView() {
  const trpc = useTRPC();
  const [search, setSearch] = useState('');
  const campaigns = useQuery(trpc.campaigns.list.queryOptions({ limit: 100, ...(search ? { search } : {}) }));
  return (
    <>
      <PageHeading title="Campaigns">
        <Link to="/studies/new" className="button-link">
          New study
        </Link>
      </PageHeading>
      <div className="toolbar">
        <label htmlFor="campaign-filter">Filter by name</label>
        <input id="campaign-filter" type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      </div>
      <ErrorNote error={campaigns.error} />
      {campaigns.isPending ? (
        <Loading what="Loading campaigns" />
      ) : campaigns.data && campaigns.data.data.length === 0 ? (
        <p>
          No campaigns yet. <Link to="/studies/new">Start a new study</Link>: build its interview script, then run it as a campaign.
        </p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Campaigns with their statistics</caption>
            <thead>
              <tr>
                <th scope="col">Campaign</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">Invites</th>
                <th scope="col" className="num">Completed</th>
                <th scope="col" className="num">Average duration</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {campaigns.data?.data.map((campaign) => (
                <tr key={campaign.id}>
                  <th scope="row">
                    <Link to={`/campaigns/${campaign.id}`}>{campaign.name}</Link>
                  </th>
                  <td>{campaign.status}</td>
                  <td className="num">{campaign.stats.totalInvites}</td>
                  <td className="num">{campaign.stats.completedSessions}</td>
                  <td className="num">{formatDuration(campaign.stats.averageDuration)}</td>
                  <td>{formatDateTime(campaign.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

type SessionRow = RouterOutputs['sessions']['list']['data'][number];

export function CampaignView({ campaignId }: { campaignId: string }) {
  const trpc = useTRPC();
  const [offset, setOffset] = useState(0);
  const campaign = useQuery(trpc.campaigns.get.queryOptions({ campaignId }));
  const sessions = useQuery(trpc.sessions.list.queryOptions({ campaignId, limit: 25, offset }));
  if (campaign.error) return <ErrorNote error={campaign.error} />;
  if (!campaign.data) return <Loading what="Loading the campaign" />;
  const stats = campaign.data.stats;
  const page = sessions.data;
  const sentimentBars = sentimentCounts(page?.data ?? []);
  return (
    <>
      <PageHeading title={campaign.data.name}>
        <AnonymizedExportButton campaignId={campaignId} />
      </PageHeading>
      {campaign.data.description && <p>{campaign.data.description}</p>}
      <dl className="stats">
        <div>
          <dt>Status</dt>
          <dd>{campaign.data.status}</dd>
        </div>
        <div>
          <dt>Invites</dt>
          <dd>{stats.totalInvites}</dd>
        </div>
        <div>
          <dt>Completed sessions</dt>
          <dd>{stats.completedSessions}</dd>
        </div>
        <div>
          <dt>Average duration</dt>
          <dd>{formatDuration(stats.averageDuration)}</dd>
        </div>
      </dl>

      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <ErrorNote error={sessions.error} />
        {!page ? (
          <Loading what="Loading sessions" />
        ) : page.data.length === 0 ? (
          <p>No sessions yet.</p>
        ) : (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Sessions of this campaign</caption>
                <thead>
                  <tr>
                    <th scope="col">Participant</th>
                    <th scope="col">Status</th>
                    <th scope="col">Started</th>
                    <th scope="col" className="num">Duration</th>
                    <th scope="col">Sentiment</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((session) => (
                    <tr key={session.id}>
                      <th scope="row">
                        <Link to={`/sessions/${session.id}`}>{session.participant.name ?? session.participant.email ?? session.id}</Link>
                      </th>
                      <td>{session.completionStatus ?? session.status}</td>
                      <td>{formatDateTime(session.startedAt)}</td>
                      <td className="num">{formatDuration(session.duration)}</td>
                      <td>
                        <SentimentBadge sentiment={session.sentiment?.overall} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="pager">
              <button type="button" className="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - 25))}>
                Previous
              </button>
              <span className="muted">
                {offset + 1}–{offset + page.data.length} of {page.pagination.total}
              </span>
              <button type="button" className="secondary" disabled={!page.pagination.hasMore} onClick={() => setOffset(offset + 25)}>
                Next
              </button>
            </div>
            {sentimentBars.some((bar) => bar.value > 0) && <BarChart title="Session sentiment (this page)" bars={sentimentBars} />}
          </>
        )}
      </section>

      <CampaignSummary campaignId={campaignId} />
    </>
  );
}

function sentimentCounts(sessions: SessionRow[]) {
  const counts = { positive: 0, neutral: 0, negative: 0 };
  for (const session of sessions) if (session.sentiment) counts[session.sentiment.overall]++;
  return (['positive', 'neutral', 'negative'] as const).map((label) => ({ label, value: counts[label] }));
}

/** An AI summary of the campaign's sessions: the configured LLM, or the built-in extractive method. */
function CampaignSummary({ campaignId }: { campaignId: string }) {
  const trpc = useTRPC();
  const summary = useMutation(trpc.summaries.create.mutationOptions());
  return (
    <section aria-labelledby="summary-title">
      <h2 id="summary-title">Summary</h2>
      <p className="muted">Themes and quotes across the campaign's sessions (the newest 200).</p>
      <button type="button" onClick={() => summary.mutate({ campaignId })} disabled={summary.isPending}>
        {summary.isPending ? 'Summarizing…' : summary.data ? 'Summarize again' : 'Summarize the campaign'}
      </button>
      <ErrorNote error={summary.error} />
      {summary.data && (
        <div className="summary" aria-live="polite">
          <p className="muted">
            {summary.data.sessionCount} sessions · {summary.data.method === 'llm' ? 'written by the configured LLM' : 'built-in extractive summary'}
            {summary.data.fallbackReason ? ` (the LLM was not used: ${summary.data.fallbackReason})` : ''}
          </p>
          {summary.data.summary ? <p>{summary.data.summary}</p> : <p>No session has participant answers yet.</p>}
          {summary.data.themes.map((theme) => (
            <article key={theme.title} className="theme">
              <h3>
                {theme.title} <span className="muted">({theme.sessionCount} sessions)</span>
              </h3>
              <ul>
                {theme.quotes.map((quote) => (
                  <li key={quote.utteranceId}>
                    <blockquote>“{quote.text}”</blockquote>{' '}
                    <Link to={`/sessions/${quote.sessionId}?u=${quote.utteranceId}`}>Open in the session</Link>
                  </li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      )}
    </section>
  );
}

/** Participant identity, metadata and PII removed; the link is valid one hour. */
function AnonymizedExportButton({ campaignId }: { campaignId: string }) {
  const trpc = useTRPC();
  const [format, setFormat] = useState<'json' | 'csv'>('json');
  const exported = useMutation(trpc.anonymizedExports.create.mutationOptions());
  return (
    <div className="export">
      <label htmlFor="export-format">Anonymized export</label>
      <select id="export-format" value={format} onChange={(event) => setFormat(event.target.value as 'json' | 'csv')}>
        <option value="json">JSON</option>
        <option value="csv">CSV</option>
      </select>
      <button type="button" className="secondary" disabled={exported.isPending} onClick={() => exported.mutate({ campaignId, format })}>
        {exported.isPending ? 'Preparing…' : 'Export'}
      </button>
      <ErrorNote error={exported.error} />
      {exported.data && (
        <p role="status">
          <a href={exported.data.url} download>
            Download the anonymized export ({exported.data.sessionCount} sessions)
          </a>{' '}
          <span className="muted">valid until {formatDateTime(exported.data.expiresAt)}</span>
        </p>
      )}
    </div>
  );
}
