import { useId } from 'react';
import type { TCampaignResults, TQuestionResult, TResultsFilter } from '../../../../shared/schemas/campaign-results';
import { BarChart, NO_VALUE } from '../charts';
import { Link } from '../router';

type Heading = 'h2' | 'h3';
type Level = 'h2' | 'h3' | 'h4' | 'h5';

/** The heading one level below `level`. */
const below = (level: Level): Level => (level === 'h2' ? 'h3' : level === 'h3' ? 'h4' : 'h5');

const percent = (count: number, total: number) => (total > 0 ? `${Math.round((count / total) * 1000) / 10}%` : NO_VALUE);
const decimal = (value: number | null, digits = 2) => (value === null ? NO_VALUE : String(Math.round(value * 10 ** digits) / 10 ** digits));
const COMPLETION_WORDS: Record<NonNullable<TResultsFilter['completion']>, string> = {
  completed: 'completed',
  timed_out: 'timed out',
  abandoned: 'abandoned',
  unfinished: 'unfinished',
};

/** The filter in words ("cohort = beta · language nl · completed"), or "All sessions". */
export function describeFilter(filter: TResultsFilter): string {
  const parts = [
    ...Object.entries(filter.segment ?? {}).map(([key, value]) => `${key} = ${value}`),
    ...(filter.language ? [`language ${filter.language}`] : []),
    ...(filter.from ? [`from ${filter.from.slice(0, 10)}`] : []),
    ...(filter.to ? [`before ${filter.to.slice(0, 10)}`] : []),
    ...(filter.completion ? [COMPLETION_WORDS[filter.completion]] : []),
  ];
  return parts.length > 0 ? parts.join(' · ') : 'All sessions';
}

/** A yes/no answer's words as people read them; an option or a rating as it is. */
function answerLabel(question: TQuestionResult, value: string): string {
  if (question.type === 'yes_no') return value === 'yes' ? 'Yes' : value === 'no' ? 'No' : value;
  return value;
}

/** Promoters (9–10), passives (7–8) and detractors (0–6) of a 0–10 rating, from its counts. */
function npsGroups(question: TQuestionResult): { promoters: number; passives: number; detractors: number } {
  const groups = { promoters: 0, passives: 0, detractors: 0 };
  for (const { value, count } of question.counts) {
    const rating = Number(value);
    if (!Number.isFinite(rating)) continue;
    if (rating >= 9) groups.promoters += count;
    else if (rating >= 7) groups.passives += count;
    else groups.detractors += count;
  }
  return groups;
}

/**
 * A campaign's results, read-only: the completion funnel, each structured question as a chart
 * and a table, each open question with its newest answers, and the participants' feedback. It
 * fetches nothing (the caller passes the results), so the dashboard's results page and a
 * stakeholder's link render the same thing. `title` names a segment when two panels stand side
 * by side. `sessionLinks` off: no link into the dashboard's sessions (a stakeholder has no account to open them).
 */
export function CampaignResultsPanel({
  results,
  title,
  headingLevel = 'h2',
  sessionLinks = true,
}: {
  results: TCampaignResults;
  title?: string;
  headingLevel?: Heading;
  sessionLinks?: boolean;
}) {
  const id = useId();
  const H = headingLevel;
  const Sub = below(headingLevel);
  const { funnel } = results;
  return (
    <section className="results-panel" aria-labelledby={`${id}-title`}>
      <H id={`${id}-title`}>{title ?? 'Results'}</H>
      <p className="muted">
        {title === undefined && `${describeFilter(results.filter)}: `}
        {results.sessionCount} {results.sessionCount === 1 ? 'session' : 'sessions'}
      </p>
      {results.sessionCount === 0 && (
        <p className="empty-note" role="note">
          No sessions match {Object.keys(results.filter).length > 0 ? 'these filters' : 'yet: results appear once participants start their interviews'}.
        </p>
      )}

      <Sub>Completion</Sub>
      <div className="result-pair">
        <BarChart
          title="Completion funnel (share of invited)"
          bars={[
            { label: 'Invited', value: funnel.invited },
            { label: 'Started', value: funnel.started, display: `${funnel.started} (${percent(funnel.started, funnel.invited)})` },
            { label: 'Completed', value: funnel.completed, display: `${funnel.completed} (${percent(funnel.completed, funnel.invited)})` },
            { label: 'Abandoned', value: funnel.abandoned, display: `${funnel.abandoned} (${percent(funnel.abandoned, funnel.invited)})` },
          ]}
        />
        <div className="table-wrap">
          <table>
            <caption>Completion funnel</caption>
            <thead>
              <tr>
                <th scope="col">Step</th>
                <th scope="col" className="num">
                  Count
                </th>
                <th scope="col" className="num">
                  Share of invited
                </th>
                <th scope="col" className="num">
                  Share of started
                </th>
              </tr>
            </thead>
            <tbody>
              {(
                [
                  ['Invited', funnel.invited],
                  ['Started', funnel.started],
                  ['Completed', funnel.completed],
                  ['Timed out', funnel.timedOut],
                  ['Abandoned', funnel.abandoned],
                  ['In progress', funnel.inProgress],
                ] as const
              ).map(([label, count]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td className="num">{count}</td>
                  <td className="num">{percent(count, funnel.invited)}</td>
                  <td className="num">{label === 'Invited' ? NO_VALUE : percent(count, funnel.started)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>

      <Sub>Questions</Sub>
      {results.questions.length === 0 && <p className="empty-note">The script has no questions.</p>}
      {results.questions.map((question) =>
        question.type === 'open' ? (
          <OpenQuestionResult key={question.questionId} question={question} heading={below(Sub)} sessionLinks={sessionLinks} />
        ) : (
          <QuestionResult key={question.questionId} question={question} heading={below(Sub)} />
        ),
      )}

      <Sub>Participant feedback</Sub>
      <Feedback feedback={results.feedback} />
    </section>
  );
}

function QuestionResult({ question, heading: Q }: { question: TQuestionResult; heading: Level }) {
  const id = useId();
  const total = question.answered;
  const rating = question.rating;
  const nps = rating?.nps ?? null;
  const groups = rating && rating.min === 0 && rating.max === 10 ? npsGroups(question) : null;
  return (
    <article className="question-result" aria-labelledby={`${id}-q`}>
      <Q id={`${id}-q`}>{question.text}</Q>
      <p className="muted small">
        {question.type === 'rating' ? `Rating ${rating?.min}–${rating?.max}` : question.type === 'yes_no' ? 'Yes or no' : 'Multiple choice'} · {total}{' '}
        {total === 1 ? 'answer' : 'answers'}
        {question.unreadable > 0 && ` · ${question.unreadable} could not be read`}
      </p>
      {rating && (
        <dl className="stats">
          <div>
            <dt>Mean</dt>
            <dd>{decimal(rating.mean)}</dd>
          </div>
          {groups && (
            <div>
              <dt>Net Promoter Score</dt>
              <dd>{nps === null ? NO_VALUE : `${nps > 0 ? '+' : ''}${decimal(nps, 1)}`}</dd>
            </div>
          )}
          {groups && total > 0 && (
            <div>
              <dt>Promoters · passives · detractors</dt>
              <dd>
                {groups.promoters} · {groups.passives} · {groups.detractors}
              </dd>
            </div>
          )}
        </dl>
      )}
      {/* Nothing answered: one sentence, not a chart of zeros and a table of dashes. */}
      {total === 0 ? (
        <p className="empty-note">No answers in this selection.</p>
      ) : (
        <div className="result-pair">
          <BarChart
            title={`${question.text}: answers`}
            bars={question.counts.map((entry) => ({
              label: answerLabel(question, entry.value),
              value: entry.count,
              display: `${entry.count} (${percent(entry.count, total)})`,
            }))}
          />
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">{question.text}: answers</caption>
              <thead>
                <tr>
                  <th scope="col">Answer</th>
                  <th scope="col" className="num">
                    Count
                  </th>
                  <th scope="col" className="num">
                    Share
                  </th>
                </tr>
              </thead>
              <tbody>
                {question.counts.map((entry) => (
                  <tr key={entry.value}>
                    <th scope="row">{answerLabel(question, entry.value)}</th>
                    <td className="num">{entry.count}</td>
                    <td className="num">{percent(entry.count, total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </article>
  );
}

/** An open question: how many answered in words, and the newest answers (one per participant) as quotes. */
function OpenQuestionResult({ question, heading: Q, sessionLinks }: { question: TQuestionResult; heading: Level; sessionLinks: boolean }) {
  const id = useId();
  return (
    <article className="question-result" aria-labelledby={`${id}-q`}>
      <Q id={`${id}-q`}>{question.text}</Q>
      <p className="muted small">
        Open question · {question.answered} answered
        {question.unreadable > 0 && ` · ${question.unreadable} could not be transcribed`}
      </p>
      {question.quotes.length === 0 ? (
        <p className="empty-note">No answers in this selection.</p>
      ) : (
        <ul className="answer-quotes" aria-label={question.quotes.length === 1 ? 'The newest answer' : `The ${question.quotes.length} newest answers`}>
          {question.quotes.map((quote) => (
            <li key={quote.utteranceId}>
              <blockquote>{quote.text}</blockquote>
              {sessionLinks && <Link to={`/sessions/${quote.sessionId}?u=${quote.utteranceId}`}>Open in the session</Link>}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function Feedback({ feedback }: { feedback: TCampaignResults['feedback'] }) {
  const recommended = feedback.wouldRecommend.yes + feedback.wouldRecommend.no;
  if (feedback.count === 0) return <p className="empty-note">No participant has given feedback in this selection.</p>;
  return (
    <>
      <p className="muted">
        {feedback.count} {feedback.count === 1 ? 'participant' : 'participants'} gave feedback (ratings 1–5).
      </p>
      <dl className="stats">
        {(
          [
            ['Overall', feedback.overall],
            ['Ease of use', feedback.easeOfUse],
            ['Audio quality', feedback.audioQuality],
            ['Question clarity', feedback.questionClarity],
          ] as const
        ).map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value === null ? NO_VALUE : `${decimal(value)} / 5`}</dd>
          </div>
        ))}
        <div>
          <dt>Would recommend</dt>
          <dd>
            {recommended === 0 ? NO_VALUE : `${percent(feedback.wouldRecommend.yes, recommended)} yes (${feedback.wouldRecommend.yes} of ${recommended})`}
          </dd>
        </div>
      </dl>
      {feedback.comments.length === 0 ? (
        <p className="empty-note">No comments.</p>
      ) : (
        <ul className="feedback-comments" aria-label="Comments, newest first">
          {feedback.comments.map((comment) => (
            <li key={comment.sessionId}>
              {comment.comments && <blockquote>{comment.comments}</blockquote>}
              {comment.technicalIssues && (
                <p>
                  <strong>Technical issues:</strong> {comment.technicalIssues}
                </p>
              )}
              <p className="muted small">
                {comment.participant ?? 'Anonymous participant'}
                {comment.overallRating !== null && ` · overall ${comment.overallRating} / 5`} ·{' '}
                {new Date(comment.submittedAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
