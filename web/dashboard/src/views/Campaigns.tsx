import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TCampaign } from '../../../../shared/schemas/campaigns';
import { CampaignForm } from '../campaigns/CampaignForm';
import { ConfirmButton } from '../campaigns/ConfirmButton';
import { Problem } from '../campaigns/problems';
import { BarChart } from '../charts';
import { ParticipantsPanel } from '../participants/ParticipantsPanel';
import { ShareLinksPanel } from '../participants/ShareLinksPanel';
import { CampaignResultsView } from '../results/CampaignResultsView';
import { ShareWithStakeholders } from '../stakeholder/ShareWithStakeholders';
import { Link, useRouter } from '../router';
import { type RouterOutputs, useTRPC } from '../trpc';
import { ErrorNote, formatDateTime, formatDuration, Loading, PageHeading, Pager, SentimentBadge } from '../ui';
import { countOf } from '../words';

export function CampaignsView() {
  const trpc = useTRPC();
  const [search, setSearch] = useState('');
  const campaigns = useQuery(trpc.campaigns.list.queryOptions({ limit: 100, ...(search ? { search } : {}) }));
  return (
    <>
      <PageHeading title="Campaigns">
        <Link to="/studies/new" className="button">
          New study
        </Link>
        <Link to="/campaigns/new" className="button secondary-button">
          New campaign
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
          <table className="stacked">
            <caption className="visually-hidden">Campaigns with their statistics</caption>
            <thead>
              <tr>
                <th scope="col">Campaign</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Invites
                </th>
                <th scope="col" className="num">
                  Completed
                </th>
                <th scope="col" className="num">
                  Average duration
                </th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {campaigns.data?.data.map((campaign) => (
                <tr key={campaign.id}>
                  <th scope="row">
                    <Link to={`/campaigns/${campaign.id}`}>{campaign.name}</Link>
                  </th>
                  <td data-label="Status">{campaign.status}</td>
                  <td data-label="Invites" className="num">
                    {campaign.stats.totalInvites}
                  </td>
                  <td data-label="Completed" className="num">
                    {campaign.stats.completedSessions}
                  </td>
                  <td data-label="Average duration" className="num">
                    {formatDuration(campaign.stats.averageDuration)}
                  </td>
                  <td data-label="Created">{formatDateTime(campaign.createdAt)}</td>
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

/** The sections of a campaign's page, each at its own address. */
export const CAMPAIGN_TABS = [
  { tab: '', label: 'Overview' },
  { tab: 'participants', label: 'Participants' },
  { tab: 'share-links', label: 'Share links' },
  { tab: 'results', label: 'Results' },
  { tab: 'settings', label: 'Settings' },
] as const;
export type CampaignTab = (typeof CAMPAIGN_TABS)[number]['tab'];

export function isCampaignTab(tab: string): tab is CampaignTab {
  return CAMPAIGN_TABS.some((item) => item.tab === tab);
}

/** `/campaigns/new`: a campaign on a published script, with its settings. */
export function NewCampaignView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { navigate, query } = useRouter();
  const create = useMutation(
    trpc.campaigns.create.mutationOptions({
      onSuccess: (campaign) => {
        void queryClient.invalidateQueries(trpc.campaigns.pathFilter());
        navigate(`/campaigns/${campaign.id}/participants`);
      },
    }),
  );
  return (
    <>
      <p className="crumbs">
        <Link to="/">Campaigns</Link>
      </p>
      <PageHeading title="New campaign" />
      <p className="muted">A campaign runs one published script with participants you invite or reach through a share link.</p>
      <CampaignForm
        initialScriptId={query.get('scriptId') ?? undefined}
        submitLabel="Create the campaign"
        pending={create.isPending}
        error={create.error}
        onSubmitCreate={(input) => create.mutate(input)}
      />
    </>
  );
}

export function CampaignView({ campaignId, tab = '' }: { campaignId: string; tab?: CampaignTab }) {
  const trpc = useTRPC();
  const campaign = useQuery(trpc.campaigns.get.queryOptions({ campaignId }));
  if (campaign.error) return <ErrorNote error={campaign.error} />;
  if (!campaign.data) return <Loading what="Loading the campaign" />;
  const data = campaign.data;
  const active = data.status === 'active';
  const current = CAMPAIGN_TABS.find((item) => item.tab === tab)!;
  return (
    <>
      <p className="crumbs">
        <Link to="/">Campaigns</Link>
      </p>
      <PageHeading title={tab ? `${data.name}: ${current.label}` : data.name}>
        <span className={`badge status-${data.status}`}>{data.status}</span>
        <StatusActions campaign={data} />
      </PageHeading>
      {data.participantTitle && (
        <p className="muted small">
          Participants see: <strong>{data.participantTitle}</strong>
        </p>
      )}
      <nav aria-label="Campaign sections" className="subnav">
        <ul>
          {CAMPAIGN_TABS.map((item) => (
            <li key={item.tab}>
              <Link to={`/campaigns/${campaignId}${item.tab ? `/${item.tab}` : ''}`} aria-current={item.tab === tab ? 'page' : undefined}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {tab === '' && <CampaignOverview campaign={data} />}
      {tab === 'participants' && <ParticipantsPanel campaignId={campaignId} active={active} />}
      {tab === 'share-links' && <ShareLinksPanel campaignId={campaignId} active={active} />}
      {tab === 'results' && (
        <>
          <CampaignResultsView campaignId={campaignId} />
          <ShareWithStakeholders target={{ kind: 'campaign', id: campaignId }} />
        </>
      )}
      {tab === 'settings' && <CampaignSettings campaign={data} />}
    </>
  );
}

/** Pause, resume and archive, each confirmed in words first. Archived is final: no actions. */
function StatusActions({ campaign }: { campaign: TCampaign }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const onSuccess = () => void queryClient.invalidateQueries(trpc.campaigns.pathFilter());
  const pause = useMutation(trpc.campaigns.pause.mutationOptions({ onSuccess }));
  const resume = useMutation(trpc.campaigns.resume.mutationOptions({ onSuccess }));
  const archive = useMutation(trpc.campaigns.archive.mutationOptions({ onSuccess }));
  const pending = pause.isPending || resume.isPending || archive.isPending;
  if (campaign.status === 'archived') return null;
  return (
    <div className="status-actions">
      {campaign.status === 'active' ? (
        <ConfirmButton
          label="Pause"
          title="Pause the campaign?"
          confirmLabel="Pause the campaign"
          disabled={pending}
          onConfirm={() => pause.mutate({ campaignId: campaign.id })}
        >
          <p>Invite links stop working and share links take nobody new until you resume it. Interviews under way can be finished. Nothing is deleted.</p>
        </ConfirmButton>
      ) : (
        <ConfirmButton
          label="Resume"
          title="Resume the campaign?"
          confirmLabel="Resume the campaign"
          disabled={pending}
          onConfirm={() => resume.mutate({ campaignId: campaign.id })}
        >
          <p>Invite links work again and new participants can be invited.</p>
        </ConfirmButton>
      )}
      <ConfirmButton
        label="Archive"
        title="Archive the campaign?"
        confirmLabel="Archive it for good"
        danger
        disabled={pending}
        onConfirm={() => archive.mutate({ campaignId: campaign.id })}
      >
        <p>Archiving is final: the campaign can no longer be changed, resumed or given invites, and its share links close. Its sessions and results stay.</p>
      </ConfirmButton>
      <Problem error={pause.error ?? resume.error ?? archive.error} />
    </div>
  );
}

function CampaignSettings({ campaign }: { campaign: TCampaign }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(trpc.campaigns.update.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries(trpc.campaigns.pathFilter()) }));
  if (campaign.status === 'archived') {
    return <p className="advice">The campaign is archived, which is final: its settings can no longer be changed.</p>;
  }
  return (
    <>
      <CampaignForm
        key={campaign.id}
        campaign={campaign}
        submitLabel="Save the settings"
        pending={update.isPending}
        error={update.error}
        onSubmitUpdate={(input) => update.mutate(input)}
      />
      {update.isSuccess && (
        <p role="status" className="success">
          Saved {formatDateTime(update.data.updatedAt)}.
        </p>
      )}
    </>
  );
}

function CampaignOverview({ campaign }: { campaign: TCampaign }) {
  const trpc = useTRPC();
  const campaignId = campaign.id;
  const [offset, setOffset] = useState(0);
  const sessions = useQuery(trpc.sessions.list.queryOptions({ campaignId, limit: 25, offset }));
  const stats = campaign.stats;
  const page = sessions.data;
  const sentimentBars = sentimentCounts(page?.data ?? []);
  return (
    <>
      <div className="overview-actions">
        <AnonymizedExportButton campaignId={campaignId} />
      </div>
      {campaign.description && <p>{campaign.description}</p>}
      <dl className="stats">
        <div>
          <dt>Status</dt>
          <dd>{campaign.status}</dd>
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
          <p>
            No sessions yet. <Link to={`/campaigns/${campaignId}/participants`}>Invite participants</Link> or{' '}
            <Link to={`/campaigns/${campaignId}/share-links`}>share a link</Link>.
          </p>
        ) : (
          <>
            <div className="table-wrap">
              <table className="stacked sessions-table">
                <caption className="visually-hidden">Sessions of this campaign</caption>
                <thead>
                  <tr>
                    <th scope="col">Participant</th>
                    <th scope="col">Status</th>
                    <th scope="col">Started</th>
                    <th scope="col" className="num">
                      Duration
                    </th>
                    <th scope="col">Sentiment</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((session) => (
                    <tr key={session.id}>
                      <th scope="row" data-label="Participant">
                        <Link to={`/sessions/${session.id}`}>{session.participant.name ?? session.participant.email ?? session.id}</Link>
                      </th>
                      <td data-label="Status">{session.completionStatus ?? session.status}</td>
                      <td data-label="Started">{formatDateTime(session.startedAt)}</td>
                      <td data-label="Duration" className="num">
                        {formatDuration(session.duration)}
                      </td>
                      <td data-label="Sentiment">
                        <SentimentBadge sentiment={session.sentiment?.overall} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager offset={offset} pageSize={25} shown={page.data.length} pagination={page.pagination} onOffset={setOffset} />
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
            {countOf(summary.data.sessionCount, 'session')} · {summary.data.method === 'llm' ? 'written by the configured LLM' : 'built-in extractive summary'}
            {summary.data.fallbackReason ? ` (the LLM was not used: ${summary.data.fallbackReason})` : ''}
          </p>
          {summary.data.summary ? <p>{summary.data.summary}</p> : <p>No session has participant answers yet.</p>}
          {summary.data.themes.map((theme) => (
            <article key={theme.title} className="theme">
              <h3>
                {theme.title} <span className="muted">({countOf(theme.sessionCount, 'session')})</span>
              </h3>
              <ul>
                {theme.quotes.map((quote) => (
                  <li key={quote.utteranceId}>
                    <blockquote>“{quote.text}”</blockquote> <Link to={`/sessions/${quote.sessionId}?u=${quote.utteranceId}`}>Open in the session</Link>
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
            Download the anonymized export ({countOf(exported.data.sessionCount, 'session')})
          </a>{' '}
          <span className="muted">valid until {formatDateTime(exported.data.expiresAt)}</span>
        </p>
      )}
    </div>
  );
}
