import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { GroupedBarChart } from '../charts';
import { type RouterInputs, type RouterOutputs, useTRPC } from '../trpc';
import { dayEndExclusive, dayStart, ErrorNote, formatDuration, Loading, PageHeading } from '../ui';

type SegmentInput = RouterInputs['comparisons']['compare']['segments'][number];
type Comparison = RouterOutputs['comparisons']['compare'];
type AnswerValue = Comparison['segments'][number]['questions'][number]['counts'][number]['value'];

interface SegmentForm {
  key: number;
  campaignId: string;
  label: string;
  from: string;
  to: string;
}

const percent = (value: number) => `${Math.round(value * 1000) / 10}%`;

/** A yes/no question's answers are booleans: shown as words. An option or a rating shows as it is. */
function valueLabel(value: AnswerValue): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** Values compare by type, as the report counts them: the option "5" is not the rating 5. */
function valueKey(value: AnswerValue): string {
  return `${typeof value}:${String(value)}`;
}

export function CompareView() {
  const trpc = useTRPC();
  const campaigns = useQuery(trpc.campaigns.list.queryOptions({ limit: 100 }));
  const [segments, setSegments] = useState<SegmentForm[]>([
    { key: 1, campaignId: '', label: '', from: '', to: '' },
    { key: 2, campaignId: '', label: '', from: '', to: '' },
  ]);
  const [submitted, setSubmitted] = useState<SegmentInput[] | null>(null);
  const report = useQuery({ ...trpc.comparisons.compare.queryOptions({ segments: submitted ?? [] }), enabled: submitted !== null });

  const update = (key: number, patch: Partial<SegmentForm>) =>
    setSegments(segments.map((segment) => (segment.key === key ? { ...segment, ...patch } : segment)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(
      segments.map((segment) => ({
        campaignId: segment.campaignId,
        ...(segment.label.trim() ? { label: segment.label.trim() } : {}),
        ...(segment.from ? { from: dayStart(segment.from)! } : {}),
        ...(segment.to ? { to: dayEndExclusive(segment.to)! } : {}),
      })),
    );
  };

  return (
    <>
      <PageHeading title="Compare campaigns" />
      <p className="muted">Two to six campaigns or segments side by side: completion, duration, sentiment and the answers to structured questions.</p>
      <form onSubmit={submit} className="panel">
        {segments.map((segment, index) => (
          <fieldset key={segment.key} className="segment">
            <legend>Segment {index + 1}</legend>
            <div>
              <label htmlFor={`seg-${segment.key}-campaign`}>Campaign</label>
              <select
                id={`seg-${segment.key}-campaign`}
                value={segment.campaignId}
                onChange={(event) => update(segment.key, { campaignId: event.target.value })}
                required
              >
                <option value="">Choose…</option>
                {campaigns.data?.data.map((campaign) => (
                  <option key={campaign.id} value={campaign.id}>
                    {campaign.name}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`seg-${segment.key}-label`}>Label (optional)</label>
              <input
                id={`seg-${segment.key}-label`}
                value={segment.label}
                onChange={(event) => update(segment.key, { label: event.target.value })}
                maxLength={100}
              />
            </div>
            <div>
              <label htmlFor={`seg-${segment.key}-from`}>Started from</label>
              <input id={`seg-${segment.key}-from`} type="date" value={segment.from} onChange={(event) => update(segment.key, { from: event.target.value })} />
            </div>
            <div>
              <label htmlFor={`seg-${segment.key}-to`}>to (inclusive)</label>
              <input id={`seg-${segment.key}-to`} type="date" value={segment.to} onChange={(event) => update(segment.key, { to: event.target.value })} />
            </div>
            {segments.length > 2 && (
              <button type="button" className="link danger" onClick={() => setSegments(segments.filter((item) => item.key !== segment.key))}>
                Remove segment {index + 1}
              </button>
            )}
          </fieldset>
        ))}
        <div className="row">
          {segments.length < 6 && (
            <button
              type="button"
              className="secondary"
              onClick={() =>
                setSegments([...segments, { key: Math.max(...segments.map((segment) => segment.key)) + 1, campaignId: '', label: '', from: '', to: '' }])
              }
            >
              Add a segment
            </button>
          )}
          <button type="submit">Compare</button>
        </div>
      </form>
      <ErrorNote error={report.error} />
      {submitted && report.isPending && <Loading what="Comparing" />}
      {report.data && <ComparisonReport report={report.data} />}
    </>
  );
}

function ComparisonReport({ report }: { report: Comparison }) {
  const names = report.segments.map((segment) => segment.label);
  // Null (no completed session, no answer) stays null: the chart draws no bar and writes "—", as the table does.
  const series = (values: (segment: Comparison['segments'][number]) => (number | null)[]) =>
    report.segments.map((segment) => ({ name: segment.label, values: values(segment) }));
  return (
    <section aria-labelledby="report-title">
      <h2 id="report-title">Report</h2>
      {!report.sameScript && <p className="muted">The segments follow different scripts: only questions with the same id line up.</p>}
      <div className="table-wrap">
        <table>
          <caption>Sessions per segment</caption>
          <thead>
            <tr>
              <th scope="col">Segment</th>
              <th scope="col" className="num">
                Started
              </th>
              <th scope="col" className="num">
                Completed
              </th>
              <th scope="col" className="num">
                Abandoned
              </th>
              <th scope="col" className="num">
                Completion
              </th>
              <th scope="col" className="num">
                Median duration
              </th>
            </tr>
          </thead>
          <tbody>
            {report.segments.map((segment) => (
              <tr key={segment.index}>
                <th scope="row">
                  {segment.index + 1}. {segment.label}
                </th>
                <td className="num">{segment.sessions.started}</td>
                <td className="num">{segment.sessions.completed}</td>
                <td className="num">{segment.sessions.abandoned}</td>
                <td className="num">{segment.sessions.completionRate === null ? '—' : percent(segment.sessions.completionRate)}</td>
                <td className="num">{formatDuration(segment.duration.median)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="charts">
        <GroupedBarChart title="Completion rate" categories={['Completed']} series={series((segment) => [segment.sessions.completionRate])} format={percent} />
        <GroupedBarChart
          title="Duration of completed sessions (seconds)"
          categories={['Mean', 'Median', '90th percentile']}
          series={series((segment) => [segment.duration.mean, segment.duration.median, segment.duration.p90])}
          unit=" s"
        />
        <GroupedBarChart
          title="Sentiment of participant answers (share of rated)"
          categories={['Positive', 'Neutral', 'Negative']}
          series={series((segment) => [segment.sentiment.shares.positive, segment.sentiment.shares.neutral, segment.sentiment.shares.negative])}
          format={percent}
        />
        {report.questions.map((question) => {
          const perSegment = report.segments.map((segment) => segment.questions.find((item) => item.questionId === question.questionId));
          const values = [
            ...new Map(
              perSegment.flatMap((distribution) => distribution?.counts.map((count) => [valueKey(count.value), count.value] as const) ?? []),
            ).entries(),
          ];
          return (
            <GroupedBarChart
              key={question.questionId}
              title={`${question.text} (share of answers)`}
              categories={values.map(([, value]) => valueLabel(value))}
              series={report.segments.map((_segment, index) => ({
                name: names[index]!,
                values: values.map(([key]) => perSegment[index]?.counts.find((count) => valueKey(count.value) === key)?.share ?? null),
              }))}
              format={percent}
            />
          );
        })}
      </div>
    </section>
  );
}
