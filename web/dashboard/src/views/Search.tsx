import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useRouter } from '../router';
import { type RouterInputs, type RouterOutputs, useTRPC } from '../trpc';
import { dayEndExclusive, dayStart, ErrorNote, formatClock, formatDate, lastDayBefore, Loading, PageHeading, SentimentBadge } from '../ui';

type Filters = NonNullable<RouterInputs['search']['query']['filters']>;
type Sentiment = 'positive' | 'neutral' | 'negative';

/** What the form holds, as filters (empty ones left out: every filter narrows). */
function filtersOf(form: { campaignId: string; from: string; to: string; sentiment: Sentiment[]; speaker: string }): Filters {
  const from = dayStart(form.from);
  const to = dayEndExclusive(form.to);
  return {
    ...(form.campaignId ? { campaignIds: [form.campaignId] } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(form.sentiment.length > 0 ? { sentiment: form.sentiment } : {}),
    ...(form.speaker === 'participant' || form.speaker === 'ai' ? { speaker: form.speaker } : {}),
  };
}

export function SearchView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { query: params, navigate } = useRouter();
  const [text, setText] = useState(params.get('q') ?? '');
  const [campaignId, setCampaignId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [sentiment, setSentiment] = useState<Sentiment[]>([]);
  const [speaker, setSpeaker] = useState('participant');
  const [submitted, setSubmitted] = useState<{ query: string; filters: Filters } | null>(() => {
    const q = params.get('q');
    return q ? { query: q, filters: { speaker: 'participant' } } : null;
  });
  const [saveName, setSaveName] = useState('');

  const campaigns = useQuery(trpc.campaigns.list.queryOptions({ limit: 100 }));
  const saved = useQuery(trpc.savedSearches.list.queryOptions({ limit: 100 }));
  // Pages are asked one by one with the previous page's cursor (the input is strict: no infinite-query extras).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const firstPage = useQuery({
    ...trpc.search.query.queryOptions({ query: submitted?.query ?? ' ', filters: submitted?.filters ?? {}, limit: 20 }),
    enabled: Boolean(submitted),
  });
  const save = useMutation(
    trpc.savedSearches.create.mutationOptions({
      onSuccess: () => {
        setSaveName('');
        void queryClient.invalidateQueries(trpc.savedSearches.pathFilter());
      },
    }),
  );
  const removeSaved = useMutation(
    trpc.savedSearches.delete.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries(trpc.savedSearches.pathFilter()) }),
  );

  const run = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    setSubmitted({ query: text.trim(), filters: filtersOf({ campaignId, from, to, sentiment, speaker }) });
    setCursors([undefined]);
    navigate(`/search?q=${encodeURIComponent(text.trim())}`, { replace: true });
  };

  const runSaved = (search: { query: string; filters: Filters }) => {
    setText(search.query);
    setCampaignId(search.filters.campaignIds?.[0] ?? '');
    setFrom(search.filters.from?.slice(0, 10) ?? '');
    setTo(lastDayBefore(search.filters.to));
    setSentiment(search.filters.sentiment ?? []);
    setSpeaker(search.filters.speaker ?? 'all');
    setSubmitted({ query: search.query, filters: search.filters });
    setCursors([undefined]);
  };

  const first = firstPage.data;

  return (
    <>
      <PageHeading title="Search interviews" />
      <form className="search-form" onSubmit={run} role="search" aria-label="Search every transcript">
        <div className="search-main">
          <label htmlFor="search-text">Words or phrase</label>
          <input
            id="search-text"
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder='e.g. onboarding "setup guide" -email'
            aria-describedby="search-hint"
          />
          <button type="submit">Search</button>
        </div>
        <p id="search-hint" className="muted small">
          Quotes match an exact phrase, a minus sign excludes a word, “or” matches either.
        </p>
        <fieldset className="filters">
          <legend>Filters</legend>
          <div>
            <label htmlFor="search-campaign">Campaign</label>
            <select id="search-campaign" value={campaignId} onChange={(event) => setCampaignId(event.target.value)}>
              <option value="">All campaigns</option>
              {campaigns.data?.data.map((campaign) => (
                <option key={campaign.id} value={campaign.id}>
                  {campaign.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="search-from">Sessions from</label>
            <input id="search-from" type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
          </div>
          <div>
            <label htmlFor="search-to">to (inclusive)</label>
            <input id="search-to" type="date" value={to} onChange={(event) => setTo(event.target.value)} />
          </div>
          <div>
            <label htmlFor="search-speaker">Speaker</label>
            <select id="search-speaker" value={speaker} onChange={(event) => setSpeaker(event.target.value)}>
              <option value="participant">Participants</option>
              <option value="ai">Interviewer</option>
              <option value="all">Both</option>
            </select>
          </div>
          <fieldset className="inline">
            <legend>Sentiment</legend>
            {(['positive', 'neutral', 'negative'] as const).map((value) => (
              <label key={value} className="choice">
                <input
                  type="checkbox"
                  checked={sentiment.includes(value)}
                  onChange={(event) => setSentiment(event.target.checked ? [...sentiment, value] : sentiment.filter((item) => item !== value))}
                />{' '}
                {value}
              </label>
            ))}
          </fieldset>
        </fieldset>
      </form>

      <div className="search-layout">
        <section aria-labelledby="results-title" className="results">
          <h2 id="results-title">Results</h2>
          <ErrorNote error={firstPage.error} />
          {!submitted ? (
            <p className="muted">Search every transcript of the organization.</p>
          ) : firstPage.isPending ? (
            <Loading what="Searching" />
          ) : (
            first && (
              <>
                <p role="status">
                  {first.total}
                  {first.totalCapped ? '+' : ''} {first.total === 1 ? 'match' : 'matches'} for “{submitted.query}”
                </p>
                <ol className="hits">
                  <Hits hits={first.data} />
                  {cursors.slice(1).map((cursor) => (
                    <MoreHits
                      key={cursor}
                      search={submitted}
                      cursor={cursor!}
                      loaded={cursors}
                      onNext={(next) => setCursors((list) => (list.includes(next) ? list : [...list, next]))}
                    />
                  ))}
                </ol>
                {first.hasMore && cursors.length === 1 && first.nextCursor && (
                  <button type="button" className="secondary" onClick={() => setCursors([undefined, first.nextCursor!])}>
                    More results
                  </button>
                )}
                <form
                  className="save-search"
                  onSubmit={(event) => {
                    event.preventDefault();
                    save.mutate({ name: saveName, query: submitted.query, filters: submitted.filters });
                  }}
                >
                  <label htmlFor="save-name">Save this search as</label>
                  <div className="row">
                    <input id="save-name" value={saveName} onChange={(event) => setSaveName(event.target.value)} maxLength={100} />
                    <button type="submit" className="secondary" disabled={!saveName.trim() || save.isPending}>
                      Save search
                    </button>
                  </div>
                  <ErrorNote error={save.error} />
                  {save.isSuccess && <p role="status">Saved.</p>}
                </form>
              </>
            )
          )}
        </section>
        <aside aria-labelledby="saved-title" className="saved">
          <h2 id="saved-title">Saved searches</h2>
          <ErrorNote error={saved.error ?? removeSaved.error} />
          {saved.data?.data.length === 0 && <p className="muted small">None yet.</p>}
          <ul>
            {saved.data?.data.map((search) => (
              <li key={search.id}>
                <button type="button" className="link" onClick={() => runSaved(search)}>
                  {search.name}
                </button>{' '}
                <span className="muted small">“{search.query}”</span>{' '}
                <button type="button" className="link danger small" onClick={() => removeSaved.mutate({ savedSearchId: search.id })}>
                  Delete<span className="visually-hidden"> saved search {search.name}</span>
                </button>
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </>
  );
}

type Hit = RouterOutputs['search']['query']['data'][number];

function Hits({ hits }: { hits: Hit[] }) {
  return (
    <>
      {hits.map((hit) => (
        <li key={hit.utteranceId} className="hit">
          <Link to={`/sessions/${hit.sessionId}?u=${hit.utteranceId}`} className="hit-link">
            <span className="hit-snippet">
              {hit.snippet.map((segment, index) => (segment.match ? <mark key={index}>{segment.text}</mark> : <span key={index}>{segment.text}</span>))}
            </span>
          </Link>
          <p className="muted small">
            {hit.campaignName} · {formatDate(hit.sessionStartedAt)} · at {formatClock(hit.startTime)} · {hit.speaker === 'ai' ? 'Interviewer' : 'Participant'}{' '}
            <SentimentBadge sentiment={hit.sentiment} />
          </p>
        </li>
      ))}
    </>
  );
}

/** A following page of results, and the button for the one after it. */
function MoreHits({
  search,
  cursor,
  loaded,
  onNext,
}: {
  search: { query: string; filters: Filters };
  cursor: string;
  loaded: (string | undefined)[];
  onNext: (cursor: string) => void;
}) {
  const trpc = useTRPC();
  const page = useQuery(trpc.search.query.queryOptions({ query: search.query, filters: search.filters, limit: 20, cursor }));
  if (page.error)
    return (
      <li>
        <ErrorNote error={page.error} />
      </li>
    );
  if (!page.data)
    return (
      <li>
        <Loading what="Loading more results" />
      </li>
    );
  return (
    <>
      <Hits hits={page.data.data} />
      {page.data.hasMore && page.data.nextCursor && !loaded.includes(page.data.nextCursor) && (
        <li className="more">
          <button type="button" className="secondary" onClick={() => onNext(page.data.nextCursor!)}>
            More results
          </button>
        </li>
      )}
    </>
  );
}
