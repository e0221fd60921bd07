import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { TResultsFilter } from '../../../../shared/schemas/campaign-results';
import { CampaignResultsPanel } from '../results/CampaignResultsPanel';
import { problemOf, type RouterOutputs, useTRPC } from '../trpc';
import { formatClock, formatDate, formatDateTime, formatDuration, Loading } from '../ui';
import { countOf } from '../words';

type View = RouterOutputs['stakeholderLinks']['view'];
type SharedSession = NonNullable<View['session']>;

const KIND_TITLES = { campaign: 'Campaign results', collection: 'Collection', session: 'Interview' } as const;

/** The link itself is refused (unknown, revoked, expired): nothing read before stays on screen. */
function isRefusal(error: unknown): boolean {
  const status = problemOf(error).httpStatus;
  return status === 404 || status === 410;
}

/** Why a link shows nothing, in words: its status says which (404 unknown, 410 revoked, expired or removed). */
function Refused({ error }: { error: unknown }) {
  const problem = problemOf(error);
  const reason = problem.details.reason;
  const [title, text] =
    problem.httpStatus === 404
      ? ['This link does not exist', 'Check that you copied the whole address, or ask whoever shared it for a new link.']
      : reason === 'revoked'
        ? ['This link was revoked', 'Whoever shared it has turned it off. Ask them for a new link if you still need it.']
        : reason === 'expired'
          ? ['This link has expired', 'Ask whoever shared it for a new link.']
          : reason === 'removed'
            ? ['What this link shared was deleted', 'Ask whoever shared it for a new link.']
            : ['This page could not be loaded', problem.message];
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <div className="panel" role="alert">
      <h1>{title}</h1>
      <p>{text}</p>
    </div>
  );
}

/**
 * What a stakeholder link opens (`/shared/{token}`): read-only, without an account. The content
 * is what the link's terms allow; a campaign's results can be filtered by the viewer.
 */
export function SharedView({ token }: { token: string }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<TResultsFilter>({});
  const view = useQuery({ ...trpc.stakeholderLinks.view.queryOptions({ token, filter }), placeholderData: keepPreviousData });
  const data = view.data;
  const title = !data
    ? 'Shared with you'
    : (data.campaign?.name ??
      data.collection?.name ??
      (data.session?.participant ? `Interview with ${data.session.participant}` : KIND_TITLES[data.link.kind]));
  useEffect(() => {
    if (data) document.title = `${title} · shared by ${data.link.organizationName}`;
  }, [data, title]);

  return (
    <>
      <header className="topbar">
        <div className="brand">
          <span className="brand-name">{data ? `Shared by ${data.link.organizationName}` : 'Shared with you'}</span>
          <span className="muted">Read-only</span>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="shared-view">
        {view.error && (!data || isRefusal(view.error)) ? (
          <Refused error={view.error} />
        ) : !data ? (
          <Loading what="Loading what was shared" />
        ) : (
          <>
            <div className="page-heading">
              <h1 id="page-title">{title}</h1>
            </div>
            <p className="muted small">
              {KIND_TITLES[data.link.kind]} · {data.link.includeTranscripts ? 'with transcripts' : 'without transcripts'} ·{' '}
              {data.link.redactPii ? 'personal data redacted' : 'personal data shown'} · this link works until {formatDate(data.link.expiresAt)}
            </p>
            {view.error && <Refused error={view.error} />}
            {data.session && <SharedSessionView session={data.session} headingLevel={2} />}
            {data.collection && <SharedCollectionView collection={data.collection} />}
            {data.campaign && <SharedCampaignView campaign={data.campaign} filter={filter} onFilter={setFilter} updating={view.isFetching} />}
          </>
        )}
      </main>
    </>
  );
}

function SharedSessionView({ session, headingLevel }: { session: SharedSession; headingLevel: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const structured = session.answers.filter((answer) => answer.type !== 'open');
  return (
    <section aria-label={`Interview ${session.participant ? `with ${session.participant}` : ''}`.trim()} className="shared-session">
      <dl className="stats">
        <div>
          <dt>Participant</dt>
          <dd>{session.participant ?? 'Not shown'}</dd>
        </div>
        <div>
          <dt>Campaign</dt>
          <dd>{session.campaignName}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{session.status}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatDateTime(session.startedAt)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(session.durationSeconds)}</dd>
        </div>
      </dl>
      {structured.length > 0 && (
        <>
          <Heading>Answers</Heading>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Question</th>
                  <th scope="col">Answer</th>
                </tr>
              </thead>
              <tbody>
                {structured.map((answer) => (
                  <tr key={answer.questionId}>
                    <th scope="row">{answer.question ?? answer.questionId}</th>
                    <td>{answer.value === null ? '— (not readable)' : answer.value === true ? 'yes' : answer.value === false ? 'no' : String(answer.value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {session.transcript && (
        <>
          <Heading>Transcript</Heading>
          {session.transcript.length === 0 ? (
            <p className="muted">This interview has no transcript yet.</p>
          ) : (
            <ol className="transcript">
              {session.transcript.map((utterance, index) => (
                <li key={index} className={`utterance ${utterance.speaker}`}>
                  <div className="utterance-head">
                    <span className="speaker">{utterance.speaker === 'ai' ? 'Interviewer' : 'Participant'}</span>
                    <span className="time muted">{formatClock(utterance.startTime)}</span>
                  </div>
                  <p className="utterance-text">{utterance.text}</p>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

function SharedCollectionView({ collection }: { collection: NonNullable<View['collection']> }) {
  return (
    <>
      {collection.description && <p>{collection.description}</p>}
      {collection.items.length === 0 ? (
        <p>This collection is empty.</p>
      ) : (
        <ol className="quotes">
          {collection.items.map((item, index) => (
            <li key={index} className="quote-card">
              {item.question && <p className="small muted">Asked: {item.question}</p>}
              <blockquote>“{item.quote}”</blockquote>
              <p className="small">
                {item.label && <strong>{item.label} · </strong>}
                {item.speaker === 'ai' ? 'Interviewer' : 'Participant'}, {item.campaignName}, at {formatClock(item.startTime)}
              </p>
              {item.note && <p className="small">Note: {item.note}</p>}
              {item.context && item.context !== item.quote && <p className="small muted">The whole answer: {item.context}</p>}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

const COMPLETION_LABELS = { completed: 'Completed', timed_out: 'Timed out', abandoned: 'Abandoned', unfinished: 'Not finished yet' } as const;

function SharedCampaignView({
  campaign,
  filter,
  onFilter,
  updating,
}: {
  campaign: NonNullable<View['campaign']>;
  filter: TResultsFilter;
  onFilter: (filter: TResultsFilter) => void;
  updating: boolean;
}) {
  const id = useId();
  const segmentKeys = campaign.results.segmentKeys;
  const [segmentKey, setSegmentKey] = useState(Object.keys(filter.segment ?? {})[0] ?? '');
  const values = segmentKeys.find((segment) => segment.key === segmentKey)?.values ?? [];
  const set = (change: Partial<TResultsFilter>) => {
    const next: TResultsFilter = { ...filter, ...change };
    for (const key of Object.keys(next) as (keyof TResultsFilter)[]) if (next[key] === undefined) delete next[key];
    onFilter(next);
  };
  return (
    <>
      <form className="panel toolbar" aria-label="Filter the results" onSubmit={(event) => event.preventDefault()}>
        <div>
          <label htmlFor={`${id}-completion`}>Show sessions</label>
          <select
            id={`${id}-completion`}
            value={filter.completion ?? ''}
            onChange={(event) => set({ completion: (event.target.value || undefined) as TResultsFilter['completion'] })}
          >
            <option value="">All</option>
            {Object.entries(COMPLETION_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {campaign.results.languages.length > 1 && (
          <div>
            <label htmlFor={`${id}-language`}>Language</label>
            <select id={`${id}-language`} value={filter.language ?? ''} onChange={(event) => set({ language: event.target.value || undefined })}>
              <option value="">All</option>
              {campaign.results.languages.map((language) => (
                <option key={language} value={language}>
                  {language}
                </option>
              ))}
            </select>
          </div>
        )}
        {segmentKeys.length > 0 && (
          <>
            <div>
              <label htmlFor={`${id}-segment-key`}>Segment</label>
              <select
                id={`${id}-segment-key`}
                value={segmentKey}
                onChange={(event) => {
                  setSegmentKey(event.target.value);
                  set({ segment: undefined });
                }}
              >
                <option value="">None</option>
                {segmentKeys.map((segment) => (
                  <option key={segment.key} value={segment.key}>
                    {segment.key}
                  </option>
                ))}
              </select>
            </div>
            {segmentKey && (
              <div>
                <label htmlFor={`${id}-segment-value`}>{segmentKey} is</label>
                <select
                  id={`${id}-segment-value`}
                  value={filter.segment?.[segmentKey] ?? ''}
                  onChange={(event) => set({ segment: event.target.value ? { [segmentKey]: event.target.value } : undefined })}
                >
                  <option value="">Any</option>
                  {values.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </>
        )}
        <p className="muted small" role="status">
          {updating ? 'Updating…' : countOf(campaign.results.sessionCount, 'session')}
        </p>
      </form>
      {/* A stakeholder has no dashboard account: quotes without links into the sessions. */}
      <CampaignResultsPanel results={campaign.results} sessionLinks={false} />
      {campaign.sessions && (
        <section aria-labelledby={`${id}-sessions`}>
          <h2 id={`${id}-sessions`}>Sessions and transcripts</h2>
          {campaign.sessions.length === 0 ? (
            <p>No session matches the filter.</p>
          ) : (
            <>
              <p className="muted small">The newest {countOf(campaign.sessions.length, 'session')} the filter keeps (at most 100). Open one to read it.</p>
              <ul className="shared-sessions">
                {campaign.sessions.map((session) => (
                  <li key={session.id}>
                    <details>
                      <summary>
                        {session.participant ?? 'Participant'} · {session.status} · {formatDateTime(session.startedAt)}
                      </summary>
                      <SharedSessionView session={session} headingLevel={3} />
                    </details>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </>
  );
}
