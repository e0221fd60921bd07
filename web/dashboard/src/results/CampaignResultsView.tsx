import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { RESULTS_COMPLETION_FILTERS, type TCampaignResults, type TResultsFilter } from '../../../../shared/schemas/campaign-results';
import { Link, useRouter } from '../router';
import { useTRPC } from '../trpc';
import { dayEndExclusive, dayStart, ErrorNote, formatDateTime, formatDuration, Loading, metadataText, Pager, SentimentBadge } from '../ui';
import { CampaignResultsPanel, describeFilter } from './CampaignResultsPanel';

/**
 * A filter as the address bar holds it, so a filtered (or side-by-side) view can be linked:
 * `seg.<key>=<value>`, `lang`, `from` and `to` (days, `to` inclusive), `status`; the second
 * segment's the same behind `b.`, and `compare=1` when both are shown.
 */
interface FilterForm {
  key: string;
  value: string;
  language: string;
  from: string;
  to: string;
  completion: string;
}

const EMPTY_FORM: FilterForm = { key: '', value: '', language: '', from: '', to: '', completion: '' };
const DAY = /^\d{4}-\d\d-\d\d$/;
const COMPLETION_LABELS: Record<(typeof RESULTS_COMPLETION_FILTERS)[number], string> = {
  completed: 'Completed',
  timed_out: 'Timed out',
  abandoned: 'Abandoned',
  unfinished: 'Unfinished (may still finish)',
};
const PAGE = 20;

function formFromQuery(query: URLSearchParams, prefix: string): FilterForm {
  const segment = [...query.entries()].find(([name]) => name.startsWith(`${prefix}seg.`));
  const day = (name: string) => (DAY.test(query.get(`${prefix}${name}`) ?? '') ? query.get(`${prefix}${name}`)! : '');
  const completion = query.get(`${prefix}status`) ?? '';
  return {
    key: segment ? segment[0].slice(`${prefix}seg.`.length) : '',
    value: segment ? segment[1] : '',
    language: query.get(`${prefix}lang`) ?? '',
    from: day('from'),
    to: day('to'),
    completion: (RESULTS_COMPLETION_FILTERS as readonly string[]).includes(completion) ? completion : '',
  };
}

function writeForm(query: URLSearchParams, prefix: string, form: FilterForm): void {
  for (const name of [...query.keys()]) if (name.startsWith(`${prefix}seg.`)) query.delete(name);
  if (form.key && form.value) query.set(`${prefix}seg.${form.key}`, form.value);
  for (const [name, value] of [
    ['lang', form.language],
    ['from', form.from],
    ['to', form.to],
    ['status', form.completion],
  ] as const) {
    if (value) query.set(`${prefix}${name}`, value);
    else query.delete(`${prefix}${name}`);
  }
}

function filterOf(form: FilterForm): TResultsFilter {
  return {
    ...(form.key && form.value ? { segment: { [form.key]: form.value } } : {}),
    ...(form.language ? { language: form.language } : {}),
    ...(form.from ? { from: dayStart(form.from)! } : {}),
    ...(form.to ? { to: dayEndExclusive(form.to)! } : {}),
    ...(form.completion ? { completion: form.completion as TResultsFilter['completion'] } : {}),
  };
}

/**
 * A campaign's results page: a filter bar (segment, language, dates, completion) that every
 * chart and the session list obey, kept in the address so the view can be linked, and two
 * segments side by side (in columns on a wide screen, one under the other on a phone).
 */
export function CampaignResultsView({ campaignId }: { campaignId: string }) {
  const trpc = useTRPC();
  const { path, query, navigate } = useRouter();
  const formA = formFromQuery(query, '');
  const formB = formFromQuery(query, 'b.');
  const comparing = query.get('compare') === '1';
  const filterA = filterOf(formA);
  const filterB = filterOf(formB);

  const resultsA = useQuery({ ...trpc.campaignResults.get.queryOptions({ campaignId, filter: filterA }), placeholderData: keepPreviousData });
  const resultsB = useQuery({
    ...trpc.campaignResults.get.queryOptions({ campaignId, filter: filterB }),
    placeholderData: keepPreviousData,
    enabled: comparing,
  });

  const update = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(query);
    change(next);
    const text = next.toString();
    navigate(`${path}${text ? `?${text}` : ''}`, { replace: true });
  };
  const facets = resultsA.data;

  return (
    <section aria-labelledby="results-title" className="results-view">
      <h2 id="results-title">Results</h2>
      <div className="panel results-filters">
        <label className="choice">
          <input
            type="checkbox"
            checked={comparing}
            onChange={(event) =>
              update((next) => {
                if (event.target.checked) next.set('compare', '1');
                else {
                  next.delete('compare');
                  for (const name of [...next.keys()]) if (name.startsWith('b.')) next.delete(name);
                }
              })
            }
          />{' '}
          Compare two segments side by side
        </label>
        <FilterBar legend={comparing ? 'Segment A' : 'Filters'} form={formA} facets={facets} onChange={(form) => update((next) => writeForm(next, '', form))} />
        {comparing && <FilterBar legend="Segment B" form={formB} facets={facets} onChange={(form) => update((next) => writeForm(next, 'b.', form))} />}
      </div>

      <ErrorNote error={resultsA.error ?? (comparing ? resultsB.error : null)} />
      <div className={comparing ? 'results-columns' : undefined} aria-busy={resultsA.isFetching || (comparing && resultsB.isFetching)}>
        {resultsA.data ? (
          <CampaignResultsPanel
            results={resultsA.data}
            title={comparing ? `Segment A: ${describeFilter(resultsA.data.filter)}` : describeFilter(resultsA.data.filter)}
            headingLevel="h3"
          />
        ) : (
          !resultsA.error && <Loading what="Loading the results" />
        )}
        {comparing &&
          (resultsB.data ? (
            <CampaignResultsPanel results={resultsB.data} title={`Segment B: ${describeFilter(resultsB.data.filter)}`} headingLevel="h3" />
          ) : (
            !resultsB.error && <Loading what="Loading segment B" />
          ))}
      </div>

      <ResultSessions
        campaignId={campaignId}
        filter={filterA}
        title={comparing ? `Sessions of segment A (${describeFilter(filterA)})` : `Sessions (${describeFilter(filterA)})`}
      />
    </section>
  );
}

function FilterBar({
  legend,
  form,
  facets,
  onChange,
}: {
  legend: string;
  form: FilterForm;
  facets: TCampaignResults | undefined;
  onChange: (form: FilterForm) => void;
}) {
  const id = useId();
  // The address holds a segment only once it has a value: the key chosen before that lives here.
  const [key, setKey] = useState(form.key);
  useEffect(() => {
    if (form.key) setKey(form.key);
  }, [form.key]);
  const keys = facets?.segmentKeys ?? [];
  const values = keys.find((entry) => entry.key === key)?.values ?? (form.value ? [form.value] : []);
  const set = (patch: Partial<FilterForm>) => onChange({ ...form, ...patch });
  const chooseKey = (next: string) => {
    setKey(next);
    if (form.key || form.value) set({ key: '', value: '' });
  };
  return (
    <fieldset className="filters results-filter">
      <legend>{legend}</legend>
      <div>
        <label htmlFor={`${id}-key`}>Segment</label>
        <select id={`${id}-key`} value={key} onChange={(event) => chooseKey(event.target.value)}>
          <option value="">Everyone</option>
          {keys.map((entry) => (
            <option key={entry.key} value={entry.key}>
              {entry.key}
            </option>
          ))}
          {key && !keys.some((entry) => entry.key === key) && <option value={key}>{key}</option>}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-value`}>Value</label>
        <select id={`${id}-value`} value={form.value} disabled={!key} onChange={(event) => set({ key, value: event.target.value })}>
          <option value="">{key ? 'Everyone' : 'Pick a segment'}</option>
          {values.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-language`}>Language</label>
        <select id={`${id}-language`} value={form.language} onChange={(event) => set({ language: event.target.value })}>
          <option value="">Any</option>
          {[...new Set([...(facets?.languages ?? []), ...(form.language ? [form.language] : [])])].map((language) => (
            <option key={language} value={language}>
              {language}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-from`}>Created from</label>
        <input id={`${id}-from`} type="date" value={form.from} onChange={(event) => set({ from: event.target.value })} />
      </div>
      <div>
        <label htmlFor={`${id}-to`}>to (inclusive)</label>
        <input id={`${id}-to`} type="date" value={form.to} onChange={(event) => set({ to: event.target.value })} />
      </div>
      <div>
        <label htmlFor={`${id}-completion`}>Completion</label>
        <select id={`${id}-completion`} value={form.completion} onChange={(event) => set({ completion: event.target.value })}>
          <option value="">Any</option>
          {RESULTS_COMPLETION_FILTERS.map((completion) => (
            <option key={completion} value={completion}>
              {COMPLETION_LABELS[completion]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setKey('');
            onChange(EMPTY_FORM);
          }}
          disabled={!key && JSON.stringify(form) === JSON.stringify(EMPTY_FORM)}
        >
          Clear {legend === 'Filters' ? 'filters' : legend}
        </button>
      </div>
    </fieldset>
  );
}

const STATUS_WORDS: Record<string, string> = {
  created: 'not started',
  in_progress: 'in progress',
  paused: 'paused',
  completed: 'completed',
  timed_out: 'timed out',
  abandoned: 'abandoned',
};

function ResultSessions({ campaignId, filter, title }: { campaignId: string; filter: TResultsFilter; title: string }) {
  const trpc = useTRPC();
  const [offset, setOffset] = useState(0);
  const filterKey = JSON.stringify(filter);
  // A new filter starts on its first page.
  useEffect(() => setOffset(0), [filterKey]);
  const sessions = useQuery({ ...trpc.campaignResults.sessions.queryOptions({ campaignId, filter, limit: PAGE, offset }), placeholderData: keepPreviousData });
  const page = sessions.data;
  return (
    <section aria-labelledby="result-sessions-title">
      <h3 id="result-sessions-title">{title}</h3>
      <ErrorNote error={sessions.error} />
      {!page ? (
        !sessions.error && <Loading what="Loading sessions" />
      ) : page.data.length === 0 ? (
        <p className="empty-note">No sessions match these filters.</p>
      ) : (
        <>
          {/* Stacked into a card per session on a phone: six columns do not fit 390 px. */}
          <div className="table-wrap">
            <table className="stacked">
              <caption className="visually-hidden">Sessions these filters keep</caption>
              <thead>
                <tr>
                  <th scope="col">Participant</th>
                  <th scope="col">Status</th>
                  <th scope="col">Started</th>
                  <th scope="col" className="num">
                    Duration
                  </th>
                  <th scope="col">Sentiment</th>
                  <th scope="col">Segment</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((session) => (
                  <tr key={session.id}>
                    <th scope="row" data-label="Participant">
                      <Link to={`/sessions/${session.id}`}>{session.participant ?? 'Anonymous participant'}</Link>
                    </th>
                    <td data-label="Status">{STATUS_WORDS[session.completionStatus ?? session.status] ?? session.status}</td>
                    <td data-label="Started">{formatDateTime(session.startedAt)}</td>
                    <td data-label="Duration" className="num">
                      {session.startedAt ? formatDuration(session.duration) : '—'}
                    </td>
                    <td data-label="Sentiment">{session.sentiment ? <SentimentBadge sentiment={session.sentiment} /> : '—'}</td>
                    <td data-label="Segment">{metadataText(session.segment)}</td>
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
