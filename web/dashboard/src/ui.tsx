import { type ReactNode, useEffect, useId, useRef } from 'react';
import { problemOf } from './trpc';
import { formatDuration as formatSeconds } from '../../../shared/format-duration';

/** Shown where a call failed: the server's message and each field at fault, announced to screen readers. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const problem = problemOf(error);
  return (
    <div className="error" role="alert">
      <strong>Error:</strong> {problem.message}
      {problem.fields.length > 0 && (
        <ul>
          {problem.fields.map((field) => (
            <li key={field.path}>
              <code>{field.path}</code>: {field.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="muted" role="status">
      {what}…
    </p>
  );
}

const SENTIMENT_SYMBOL = { positive: '+', neutral: '•', negative: '−' } as const;

/** Sentiment as a word and a symbol, never by colour alone. */
export function SentimentBadge({ sentiment, overridden = false }: { sentiment: 'positive' | 'neutral' | 'negative' | null | undefined; overridden?: boolean }) {
  if (!sentiment) return <span className="badge">no sentiment</span>;
  return (
    <span className={`badge sentiment-${sentiment}`}>
      <span aria-hidden="true">{SENTIMENT_SYMBOL[sentiment]} </span>
      {sentiment}
      {overridden ? ' (set by a researcher)' : ''}
    </span>
  );
}

/**
 * A modal dialog on the native `<dialog>`: focus moves into it, Escape closes it, the page behind
 * is inert, and focus goes back to what opened it.
 */
export function Dialog({ title, open, onClose, children }: { title: string; open: boolean; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null;
      dialog.showModal();
      return () => {
        if (dialog.open) dialog.close();
        opener?.focus();
      };
    }
    return undefined;
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      )}
    </dialog>
  );
}

/** A sentiment score as the label beside it reads it: signed, two decimals ("+0.01", "−0.42", "0.00"). */
export function formatSentimentScore(score: number): string {
  const fixed = Math.abs(score).toFixed(2);
  if (fixed === '0.00') return '0.00';
  return `${score > 0 ? '+' : '\u2212'}${fixed}`;
}

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  return new Date(value).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** 75 → `1:15`. */
export function formatClock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, '0')}`;
}

/** A length of time as the service writes it everywhere ("12 min 5 s", "1 h 3 min"); none is "—". */
export function formatDuration(seconds: number | null | undefined): string {
  return seconds === null || seconds === undefined ? '—' : formatSeconds(seconds);
}

/** A date input's day (YYYY-MM-DD) as that day's start in UTC; an empty input is no bound. */
export function dayStart(day: string): string | undefined {
  return day ? `${day}T00:00:00Z` : undefined;
}

/** The exclusive end of a date input's day (the next day's start, UTC), so the whole chosen day is in. */
export function dayEndExclusive(day: string): string | undefined {
  return day ? new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString() : undefined;
}

/** The last day an exclusive end includes, for a date input. */
export function lastDayBefore(end: string | undefined): string {
  return end ? new Date(Date.parse(end) - 86_400_000).toISOString().slice(0, 10) : '';
}

/** A secret shown once (new API key, new webhook secret): selectable, with a copy button. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="shown-once" role="status">
      <label htmlFor={id}>{label}</label>
      <p className="muted">Copy it now: it is not shown again.</p>
      <div className="row">
        <input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} className="mono" />
        <button type="button" onClick={() => void navigator.clipboard?.writeText(value)}>
          Copy
        </button>
      </div>
    </div>
  );
}

/** Previous / "a–b of n" / Next under a table paged by offset; `shown` is how many rows this page has. */
export function Pager({
  offset,
  pageSize,
  shown,
  pagination,
  onOffset,
}: {
  offset: number;
  pageSize: number;
  shown: number;
  pagination: { total: number; hasMore: boolean };
  onOffset: (offset: number) => void;
}) {
  return (
    <div className="pager">
      <button type="button" className="secondary" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - pageSize))}>
        Previous
      </button>
      <span className="muted">
        {offset + 1}–{offset + shown} of {pagination.total}
      </span>
      <button type="button" className="secondary" disabled={!pagination.hasMore} onClick={() => onOffset(offset + pageSize)}>
        Next
      </button>
    </div>
  );
}

/** Invite metadata (a segment) as one line, `key: value, …`; a dash when there is none. */
export function metadataText(metadata: Record<string, string | number | boolean> | undefined): string {
  const pairs = Object.entries(metadata ?? {});
  return pairs.length === 0 ? '—' : pairs.map(([key, value]) => `${key}: ${String(value)}`).join(', ');
}

export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Research dashboard`;
  }, [title]);
  return (
    <div className="page-heading">
      <h1 tabIndex={-1} id="page-title">
        {title}
      </h1>
      {children && <div className="actions">{children}</div>}
    </div>
  );
}
