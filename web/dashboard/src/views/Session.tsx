import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useAuth } from '../auth';
import { Link, useRouter } from '../router';
import { problemOf, type RouterOutputs, useTRPC, useTRPCClient } from '../trpc';
import { ShareWithStakeholders } from '../stakeholder/ShareWithStakeholders';
import { Dialog, ErrorNote, formatClock, formatDateTime, formatDuration, formatSentimentScore, Loading, PageHeading, SentimentBadge } from '../ui';

type View = RouterOutputs['workspace']['session'];
type Utterance = View['utterances'][number];
type Highlight = RouterOutputs['highlights']['list']['data'][number];
type Thread = RouterOutputs['comments']['list']['data'][number];
type Comment = Thread | Thread['replies'][number];
type Sentiment = 'positive' | 'neutral' | 'negative';

/** A span of one utterance's text the researcher selected: offsets into its current text. */
interface Selection {
  utteranceId: string;
  start: number;
  end: number;
  text: string;
}

const COLOURS = [
  { name: 'Yellow', value: '#fde047' },
  { name: 'Green', value: '#86efac' },
  { name: 'Blue', value: '#93c5fd' },
  { name: 'Pink', value: '#f9a8d4' },
  { name: 'Orange', value: '#fdba74' },
];

/** Dark text on light highlight colours, white on dark ones (WCAG relative luminance). */
function textColourOn(hex: string): string {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.35 ? '#111827' : '#ffffff';
}

/** The utterance's text cut where highlights start and end; each piece knows which highlights cover it. */
function segmentsOf(text: string, highlights: Highlight[]) {
  const cuts = new Set([0, text.length]);
  for (const highlight of highlights) {
    cuts.add(Math.min(Math.max(highlight.start, 0), text.length));
    cuts.add(Math.min(Math.max(highlight.end, 0), text.length));
  }
  const sorted = [...cuts].sort((a, b) => a - b);
  const segments: { start: number; end: number; text: string; covering: Highlight[] }[] = [];
  for (let index = 0; index < sorted.length - 1; index++) {
    const start = sorted[index]!;
    const end = sorted[index + 1]!;
    if (end > start)
      segments.push({ start, end, text: text.slice(start, end), covering: highlights.filter((highlight) => highlight.start <= start && highlight.end >= end) });
  }
  return segments;
}

/**
 * A textarea's value has every line break as LF (`\r\n` and a lone `\r` become `\n`), so its
 * selection offsets count one character per CRLF where the stored text has two: these map an
 * offset between the two, so highlights and redactions land on the stored text's characters.
 */
function toFieldOffset(text: string, offset: number): number {
  return text.slice(0, offset).replace(/\r\n?/g, '\n').length;
}

function fromFieldOffset(text: string, fieldOffset: number): number {
  let index = 0;
  for (let counted = 0; counted < fieldOffset && index < text.length; counted++) index += text[index] === '\r' && text[index + 1] === '\n' ? 2 : 1;
  return index;
}

/** Where the browser's selection falls in an utterance's text, if it lies inside one. */
function selectionInTranscript(): Selection | null {
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  const container = (node: Node | null) => (node instanceof Element ? node : node?.parentElement)?.closest<HTMLElement>('[data-utterance-text]');
  const holder = container(range.startContainer);
  if (!holder || holder !== container(range.endContainer)) return null;
  const before = document.createRange();
  before.selectNodeContents(holder);
  before.setEnd(range.startContainer, range.startOffset);
  const start = before.toString().length;
  const text = range.toString();
  if (!text.trim()) return null;
  return { utteranceId: holder.dataset.utteranceText!, start, end: start + text.length, text };
}

export function SessionView({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { query } = useRouter();
  const view = useQuery(trpc.workspace.session.queryOptions({ sessionId }));
  const client = useTRPCClient();
  // Every highlight of the session, page after page (100 is the page size, not a limit of the
  // view). Keyed under highlights.list, so what invalidates that list reads this again.
  const highlights = useQuery({
    queryKey: [...trpc.highlights.list.queryKey({ sessionId }), 'every page'],
    queryFn: async () => {
      const all: Highlight[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.highlights.list.query({ sessionId, limit: 100, ...(cursor ? { cursor } : {}) });
        all.push(...page.data);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return all;
    },
  });
  const comments = useQuery(trpc.comments.list.queryOptions({ sessionId }));
  const audioRef = useRef<HTMLAudioElement>(null);
  const [playingId, setPlayingId] = useState<string | null>(null);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [dialog, setDialog] = useState<'highlight' | 'redact' | null>(null);
  const [collecting, setCollecting] = useState<Highlight | null>(null);
  const [editing, setEditing] = useState<Highlight | null>(null);
  const target = query.get('u');

  const refresh = useCallback(() => {
    void queryClient.invalidateQueries(trpc.workspace.session.queryFilter({ sessionId }));
    void queryClient.invalidateQueries(trpc.highlights.pathFilter());
    void queryClient.invalidateQueries(trpc.comments.pathFilter());
    void queryClient.invalidateQueries(trpc.search.pathFilter());
    void queryClient.invalidateQueries(trpc.collections.pathFilter());
  }, [queryClient, trpc, sessionId]);

  // A link to one utterance (from search, a collection or a summary) scrolls to it and marks it,
  // once per link: a refetch after a save must not pull the page back there.
  const loaded = view.data !== undefined;
  useEffect(() => {
    if (!target || !loaded) return;
    const element = document.getElementById(`u-${target}`);
    element?.scrollIntoView({ block: 'center' });
    element?.focus({ preventScroll: true });
  }, [target, loaded]);

  const byUtterance = useMemo(() => {
    const map = new Map<string, Highlight[]>();
    for (const highlight of highlights.data ?? []) map.set(highlight.utteranceId, [...(map.get(highlight.utteranceId) ?? []), highlight]);
    return map;
  }, [highlights.data]);

  const threadsByUtterance = useMemo(() => {
    const map = new Map<string | null, Thread[]>();
    for (const thread of comments.data?.data ?? []) map.set(thread.utteranceId, [...(map.get(thread.utteranceId) ?? []), thread]);
    return map;
  }, [comments.data]);

  const recording = view.data?.recording ?? null;
  const onTime = () => {
    const audio = audioRef.current;
    if (!audio || !view.data || !recording) return;
    const at = recording.offsetSeconds + audio.currentTime;
    const current = view.data.utterances.find((utterance) => at >= utterance.startTime && at < Math.max(utterance.endTime, utterance.startTime + 0.5));
    setPlayingId(current?.id ?? null);
  };
  const seek = (utterance: Utterance) => {
    const audio = audioRef.current;
    if (!audio || !recording) return;
    audio.currentTime = Math.max(0, utterance.startTime - recording.offsetSeconds);
    void audio.play().catch(() => undefined);
  };

  const onMouseUp = () => {
    const selected = selectionInTranscript();
    if (selected) setSelection(selected);
  };

  if (view.error) return <ErrorNote error={view.error} />;
  if (!view.data) return <Loading what="Loading the session" />;
  const { session, utterances } = view.data;
  const title = session.participant.name ?? session.participant.email ?? session.id;

  // After a highlight or a redaction of the selected words: nothing stays selected, and the view is read again.
  const finishSelection = () => {
    setDialog(null);
    setSelection(null);
    window.getSelection()?.removeAllRanges();
    refresh();
  };
  return (
    <>
      <p className="crumbs">
        <Link to={`/campaigns/${session.campaignId}`}>{session.campaignName}</Link> › Session
      </p>
      <PageHeading title={`Interview with ${title}`}>
        <Downloads sessionId={sessionId} ready={session.transcriptStatus === 'ready'} />
      </PageHeading>
      <dl className="stats">
        <div>
          <dt>Status</dt>
          <dd>{session.completionStatus ?? session.status}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatDateTime(session.startedAt)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(session.duration)}</dd>
        </div>
        <div>
          <dt>Overall sentiment</dt>
          <dd>
            <SentimentBadge sentiment={session.sentiment?.overall} />
            {session.sentiment ? <span className="muted small"> score {formatSentimentScore(session.sentiment.score)}</span> : null}
          </dd>
        </div>
        <div>
          <dt>Highlights · comments</dt>
          <dd>
            {view.data.counts.highlights} · {view.data.counts.comments}
          </dd>
        </div>
      </dl>
      {session.turnTaking && <TurnTakingSummary summary={session.turnTaking} />}

      <div className="session-layout">
        <section aria-labelledby="transcript-title" className="transcript-section">
          <h2 id="transcript-title">Transcript</h2>
          {recording ? (
            <div className="player">
              <audio ref={audioRef} controls preload="metadata" src={recording.url} onTimeUpdate={onTime} onPause={onTime} aria-label="Interview recording">
                Your browser cannot play this recording.
              </audio>
              <p className="muted small">The line being spoken is marked “Playing”. Use a line's time to play from there.</p>
            </div>
          ) : (
            <p className="muted">No recording for this session (answered in text, or not merged yet).</p>
          )}
          <p className="muted small">Select words in an answer to highlight or redact them, or use “Annotate” on a line.</p>
          {session.transcriptStatus !== 'ready' && (
            <p role="status">
              {session.transcriptStatus === 'none' ? 'This session has no transcript.' : 'The transcript is being generated; reload shortly.'}
            </p>
          )}
          <ol className="transcript" onMouseUp={onMouseUp} onKeyUp={(event) => event.shiftKey && onMouseUp()}>
            {utterances.map((utterance, index) => (
              <UtteranceItem
                key={utterance.id}
                sessionId={sessionId}
                utterance={utterance}
                // The interviewer's line is the question; an answer shown without it gets its wording above.
                showQuestion={
                  utterance.speaker === 'participant' && utterance.questionText !== null && utterance.questionId !== utterances[index - 1]?.questionId
                }
                highlights={byUtterance.get(utterance.id) ?? []}
                threads={threadsByUtterance.get(utterance.id) ?? []}
                playing={playingId === utterance.id}
                targeted={target === utterance.id}
                canSeek={Boolean(recording)}
                onSeek={() => seek(utterance)}
                onAnnotate={() => setSelection({ utteranceId: utterance.id, start: 0, end: 0, text: '' })}
                onCollect={setCollecting}
                onEdit={setEditing}
                onChanged={refresh}
              />
            ))}
          </ol>
          <section aria-labelledby="session-comments-title">
            <h3 id="session-comments-title">Comments on the whole session</h3>
            <Comments sessionId={sessionId} utteranceId={null} threads={threadsByUtterance.get(null) ?? []} onChanged={refresh} />
          </section>
        </section>
        <aside aria-labelledby="insights-title" className="insights-section">
          <Insights sessionId={sessionId} />
        </aside>
      </div>
      <ShareWithStakeholders target={{ kind: 'session', id: sessionId }} />

      {selection && (
        <SelectionBar
          selection={selection}
          utterance={utterances.find((utterance) => utterance.id === selection.utteranceId)!}
          onChange={setSelection}
          onHighlight={() => setDialog('highlight')}
          onRedact={() => setDialog('redact')}
          onClose={() => setSelection(null)}
        />
      )}
      <Dialog title="Highlight the selection" open={dialog === 'highlight' && Boolean(selection?.text)} onClose={() => setDialog(null)}>
        {selection && <NewHighlight sessionId={sessionId} selection={selection} onDone={finishSelection} onCancel={() => setDialog(null)} />}
      </Dialog>
      <Dialog title="Redact permanently" open={dialog === 'redact' && Boolean(selection?.text)} onClose={() => setDialog(null)}>
        {selection && <RedactForm sessionId={sessionId} selection={selection} onStale={refresh} onDone={finishSelection} onCancel={() => setDialog(null)} />}
      </Dialog>
      <Dialog title="Add to a collection" open={collecting !== null} onClose={() => setCollecting(null)}>
        {collecting && <AddToCollection highlight={collecting} onDone={() => setCollecting(null)} />}
      </Dialog>
      <Dialog title="Edit the highlight" open={editing !== null} onClose={() => setEditing(null)}>
        {editing && (
          <EditHighlight
            highlight={editing}
            onDone={() => {
              setEditing(null);
              refresh();
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Dialog>
    </>
  );
}

function Downloads({ sessionId, ready }: { sessionId: string; ready: boolean }) {
  const trpc = useTRPC();
  const download = useMutation(trpc.workspace.sessionDownload.mutationOptions());
  const open = async (format: 'pdf' | 'text') => {
    const link = await download.mutateAsync({ sessionId, format });
    window.location.assign(link.url);
  };
  if (!ready) return null;
  return (
    <div className="row">
      <button type="button" onClick={() => void open('pdf')} disabled={download.isPending}>
        Download PDF report
      </button>
      <button type="button" className="secondary" onClick={() => void open('text')} disabled={download.isPending}>
        Transcript (text)
      </button>
      <ErrorNote error={download.error} />
    </div>
  );
}

function UtteranceItem(props: {
  sessionId: string;
  utterance: Utterance;
  showQuestion: boolean;
  highlights: Highlight[];
  threads: Thread[];
  playing: boolean;
  targeted: boolean;
  canSeek: boolean;
  onSeek: () => void;
  onAnnotate: () => void;
  onCollect: (highlight: Highlight) => void;
  onEdit: (highlight: Highlight) => void;
  onChanged: () => void;
}) {
  const { utterance, highlights } = props;
  const [showComments, setShowComments] = useState(false);
  const commentCount = props.threads.reduce((sum, thread) => sum + (thread.deleted ? 0 : 1) + thread.replies.filter((reply) => !reply.deleted).length, 0);
  const classes = ['utterance', utterance.speaker, props.playing ? 'playing' : '', props.targeted ? 'targeted' : ''].filter(Boolean).join(' ');
  return (
    <li id={`u-${utterance.id}`} className={classes} tabIndex={-1} aria-current={props.playing ? 'true' : undefined}>
      {props.showQuestion && <p className="question-heading">{utterance.questionText}</p>}
      <div className="utterance-head">
        <span className="speaker">{utterance.speaker === 'ai' ? 'Interviewer' : 'Participant'}</span>
        {props.canSeek ? (
          <button type="button" className="link time" onClick={props.onSeek} aria-label={`Play from ${formatClock(utterance.startTime)}`}>
            {formatClock(utterance.startTime)}
          </button>
        ) : (
          <span className="time muted">{formatClock(utterance.startTime)}</span>
        )}
        {props.playing && <span className="badge playing-badge">Playing</span>}
        {utterance.speaker === 'participant' && <SentimentBadge sentiment={utterance.sentiment} overridden={utterance.sentimentOverridden} />}
        <TurnTimingBadges timing={utterance.timing} />
      </div>
      {utterance.probe && <ProbeNote probe={utterance.probe} />}
      <ServerTimes timing={utterance.timing} />
      <p className="utterance-text" data-utterance-text={utterance.id}>
        {segmentsOf(utterance.text, highlights).map((segment) =>
          segment.covering.length > 0 ? (
            <mark
              key={segment.start}
              style={{ background: segment.covering[0]!.color, color: textColourOn(segment.covering[0]!.color) }}
              title={segment.covering.map((highlight) => highlight.label ?? 'Highlight').join(', ')}
            >
              {segment.text}
            </mark>
          ) : (
            <span key={segment.start}>{segment.text}</span>
          ),
        )}
      </p>
      {highlights.length > 0 && (
        <ul className="highlight-list" aria-label="Highlights on this line">
          {highlights.map((highlight) => (
            <HighlightChip
              key={highlight.id}
              highlight={highlight}
              onCollect={() => props.onCollect(highlight)}
              onEdit={() => props.onEdit(highlight)}
              onChanged={props.onChanged}
            />
          ))}
        </ul>
      )}
      <div className="utterance-tools">
        <button type="button" className="link" onClick={props.onAnnotate}>
          Annotate
        </button>
        <button type="button" className="link" aria-expanded={showComments} onClick={() => setShowComments(!showComments)}>
          Comments ({commentCount})
        </button>
        {utterance.speaker === 'participant' && (
          <SentimentOverride
            key={`${utterance.sentimentOverridden}:${utterance.sentiment}`}
            sessionId={props.sessionId}
            utterance={utterance}
            onChanged={props.onChanged}
          />
        )}
      </div>
      {showComments && <Comments sessionId={props.sessionId} utteranceId={utterance.id} threads={props.threads} onChanged={props.onChanged} />}
    </li>
  );
}

/** A wait in milliseconds as people read it: "850 ms", "1.2 s". */
function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The session's voice turns at a glance: how long the interviewer took to start speaking after
 * the participant stopped (median and 95th percentile), and how often the page cut the
 * participant off or the participant spoke over the interviewer.
 */
function TurnTakingSummary({ summary }: { summary: NonNullable<View['session']['turnTaking']> }) {
  return (
    <section aria-labelledby="turn-taking-title" className="turn-taking">
      <h2 id="turn-taking-title">Turn-taking</h2>
      <dl className="stats">
        <div>
          <dt>Response time, median</dt>
          <dd>{formatMs(summary.latencyP50Ms)}</dd>
        </div>
        <div>
          <dt>Response time, 95th percentile</dt>
          <dd>{formatMs(summary.latencyP95Ms)}</dd>
        </div>
        <div>
          <dt>Cut-offs</dt>
          <dd>{summary.cutOffs}</dd>
        </div>
        <div>
          <dt>Barge-ins</dt>
          <dd>{summary.bargeIns}</dd>
        </div>
      </dl>
      <p className="muted small">
        Response time: from the end of the participant's speech to the interviewer's voice starting, over {summary.turns} measured{' '}
        {summary.turns === 1 ? 'turn' : 'turns'}. A cut-off is an answer ended for the participant while they went on speaking; a barge-in, the participant
        speaking over the interviewer.
      </p>
    </section>
  );
}

/** Beside a line: the interviewer's response time before it and a barge-in on it, or a cut-off answer. */
function TurnTimingBadges({ timing }: { timing: Utterance['timing'] }) {
  if ('cutOff' in timing) return timing.cutOff ? <span className="badge cut-off-badge">Cut off</span> : null;
  return (
    <>
      {timing.latencyMs !== null && (
        <span className="badge latency-badge" title="From the end of the participant's speech to this line's voice starting">
          Responded in {formatMs(timing.latencyMs)}
        </span>
      )}
      {timing.bargeIn && <span className="badge barge-in-badge">Spoken over</span>}
    </>
  );
}

/** How each probe reason reads in the transcript. */
const PROBE_REASON_LABELS: Record<NonNullable<Utterance['probe']>['reason'], string> = {
  problem: 'problem',
  event: 'event',
  workaround: 'workaround',
  feeling: 'feeling',
  comparison: 'comparison',
  number: 'number',
  vague: 'vague answer',
  script_prompt: "script's prompt",
};

/** Why a follow-up was asked ("Probe · problem · “gave up after two tries”"), so a researcher can compare probes across participants. */
function ProbeNote({ probe }: { probe: NonNullable<Utterance['probe']> }) {
  const reason = PROBE_REASON_LABELS[probe.reason];
  const by = probe.source === 'llm' ? 'worded by the LLM' : probe.source === 'script' ? "the script's words" : 'worded by the built-in interviewer';
  return (
    <p className="muted small probe-note" title={`Probe ${probe.probeNumber} on this question, ${by}`}>
      <span aria-hidden="true">
        Probe · {reason}
        {probe.pickedUp !== null && <> · “{probe.pickedUp}”</>}
      </span>
      <span className="visually-hidden">
        Probe {probe.probeNumber}, reason: {reason}
        {probe.pickedUp !== null ? `, picking up the participant's words “${probe.pickedUp}”` : ''}; {by}.
      </span>
    </p>
  );
}

/** Where an interviewer turn's time went on the server: recognising the answer, choosing the turn, the first audio of its speech. */
function ServerTimes({ timing }: { timing: Utterance['timing'] }) {
  if ('cutOff' in timing) return null;
  const parts = [
    timing.recognitionMs !== null ? `recognition ${formatMs(timing.recognitionMs)}` : null,
    timing.interviewerMs !== null ? `interviewer ${formatMs(timing.interviewerMs)}` : null,
    timing.synthesisMs !== null ? `speech ${formatMs(timing.synthesisMs)}` : null,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return <p className="muted small server-times">Server: {parts.join(' · ')}</p>;
}

function HighlightChip({
  highlight,
  onCollect,
  onEdit,
  onChanged,
}: {
  highlight: Highlight;
  onCollect: () => void;
  onEdit: () => void;
  onChanged: () => void;
}) {
  const trpc = useTRPC();
  const remove = useMutation(trpc.highlights.delete.mutationOptions({ onSuccess: onChanged }));
  return (
    <li className="highlight-chip">
      <span className="swatch" style={{ background: highlight.color }} aria-hidden="true" />
      <strong>{highlight.label ?? 'Highlight'}</strong>: “{highlight.quote}” <span className="muted small">by {highlight.author.name}</span>
      {highlight.note && <span className="muted small"> — {highlight.note}</span>}{' '}
      <button type="button" className="link" onClick={onEdit}>
        Edit<span className="visually-hidden"> highlight “{highlight.quote}”</span>
      </button>{' '}
      <button type="button" className="link" onClick={onCollect}>
        Add to collection
      </button>{' '}
      <button type="button" className="link danger" onClick={() => remove.mutate({ highlightId: highlight.id })} disabled={remove.isPending}>
        Delete<span className="visually-hidden"> highlight “{highlight.quote}”</span>
      </button>
      <ErrorNote error={remove.error} />
    </li>
  );
}

/**
 * The researcher's sentiment for a line. Choosing in the list changes nothing until “Save”: a
 * select that saved on change would write (and audit) every option a keyboard user arrows past.
 */
function SentimentOverride({ sessionId, utterance, onChanged }: { sessionId: string; utterance: Utterance; onChanged: () => void }) {
  const trpc = useTRPC();
  const id = useId();
  const set = useMutation(trpc.sentimentOverrides.set.mutationOptions({ onSuccess: onChanged }));
  const saved = utterance.sentimentOverridden ? (utterance.sentiment ?? '') : '';
  // Keyed by what the server holds, so after a save (or another researcher's) the form starts again from there.
  const [choice, setChoice] = useState(saved);
  return (
    <form
      className="sentiment-override"
      onSubmit={(event) => {
        event.preventDefault();
        set.mutate({ sessionId, utteranceId: utterance.id, sentiment: choice === '' ? null : (choice as Sentiment) });
      }}
    >
      <label htmlFor={id}>Sentiment</label>{' '}
      <select id={id} value={choice} disabled={set.isPending} onChange={(event) => setChoice(event.target.value)}>
        <option value="">As analysed ({utterance.analysedSentiment ?? 'none'})</option>
        <option value="positive">Positive</option>
        <option value="neutral">Neutral</option>
        <option value="negative">Negative</option>
      </select>{' '}
      <button type="submit" className="secondary" disabled={choice === saved || set.isPending}>
        Save<span className="visually-hidden"> sentiment</span>
      </button>
      <ErrorNote error={set.error} />
    </form>
  );
}

/**
 * What to do with selected words. Keyboard users get here with “Annotate”: the line's text is in
 * a read-only field where Shift+arrows select words.
 */
function SelectionBar({
  selection,
  utterance,
  onChange,
  onHighlight,
  onRedact,
  onClose,
}: {
  selection: Selection;
  utterance: Utterance;
  onChange: (selection: Selection) => void;
  onHighlight: () => void;
  onRedact: () => void;
  onClose: () => void;
}) {
  const fieldId = useId();
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const fieldValue = utterance.text.replace(/\r\n?/g, '\n');
  useEffect(() => {
    const field = fieldRef.current;
    if (!field) return;
    field.setSelectionRange(toFieldOffset(utterance.text, selection.start), toFieldOffset(utterance.text, selection.end));
    if (!selection.text) field.focus();
    // Only when another line is annotated.
  }, [selection.utteranceId]);
  const fromField = () => {
    const field = fieldRef.current!;
    const start = fromFieldOffset(utterance.text, field.selectionStart);
    const end = fromFieldOffset(utterance.text, field.selectionEnd);
    onChange({ utteranceId: utterance.id, start, end, text: utterance.text.slice(start, end) });
  };
  return (
    <section className="selection-bar" aria-label="Selected words">
      <label htmlFor={fieldId}>Select the words in this line</label>
      {/* Given as the field holds it (LF only): a value that differs from the field's own is set again on every render, losing the selection. */}
      <textarea id={fieldId} ref={fieldRef} readOnly value={fieldValue} rows={3} onSelect={fromField} />
      <p aria-live="polite" className="small">
        {selection.text ? (
          <>
            Selected: “<strong>{selection.text}</strong>”
          </>
        ) : (
          'Nothing selected yet.'
        )}
      </p>
      <div className="row">
        <button type="button" onClick={onHighlight} disabled={!selection.text}>
          Highlight…
        </button>
        <button type="button" className="danger" onClick={onRedact} disabled={!selection.text}>
          Redact…
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}

/** What the researcher says about highlighted words: label and note ('' for none) and colour. */
interface HighlightDetails {
  label: string;
  colour: string;
  note: string;
}

/** The label, colour and note of a highlight: the one form for creating a highlight and for editing it. */
function HighlightForm({
  quote,
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  quote: string;
  initial?: HighlightDetails;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (details: HighlightDetails) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [label, setLabel] = useState(initial?.label ?? '');
  const [colour, setColour] = useState(initial?.colour ?? COLOURS[0]!.value);
  const [note, setNote] = useState(initial?.note ?? '');
  // A colour set through the API need not be one of ours: it stays a choice, so saving keeps it.
  const colours =
    !initial || COLOURS.some((option) => option.value === initial.colour)
      ? COLOURS
      : [...COLOURS, { name: `Current (${initial.colour})`, value: initial.colour }];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ label: label.trim(), colour, note: note.trim() });
  };
  return (
    <form onSubmit={submit}>
      <blockquote>“{quote}”</blockquote>
      <label htmlFor={`${id}-label`}>Label</label>
      <input id={`${id}-label`} value={label} onChange={(event) => setLabel(event.target.value)} maxLength={60} autoFocus />
      <fieldset className="colours">
        <legend>Colour</legend>
        {colours.map((option) => (
          <label key={option.value} className="choice">
            <input type="radio" name={`${id}-colour`} value={option.value} checked={colour === option.value} onChange={() => setColour(option.value)} />
            <span className="swatch" style={{ background: option.value }} aria-hidden="true" /> {option.name}
          </label>
        ))}
      </fieldset>
      <label htmlFor={`${id}-note`}>Note (optional)</label>
      <textarea id={`${id}-note`} value={note} onChange={(event) => setNote(event.target.value)} rows={2} maxLength={2000} />
      <ErrorNote error={error} />
      <div className="row">
        <button type="submit" disabled={pending}>
          {submitLabel}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function NewHighlight({ sessionId, selection, onDone, onCancel }: { sessionId: string; selection: Selection; onDone: () => void; onCancel: () => void }) {
  const trpc = useTRPC();
  const create = useMutation(trpc.highlights.create.mutationOptions({ onSuccess: onDone }));
  return (
    <HighlightForm
      quote={selection.text}
      submitLabel="Save highlight"
      pending={create.isPending}
      error={create.error}
      onCancel={onCancel}
      onSubmit={({ label, colour, note }) =>
        create.mutate({
          sessionId,
          utteranceId: selection.utteranceId,
          start: selection.start,
          end: selection.end,
          color: colour,
          ...(label ? { label } : {}),
          ...(note ? { note } : {}),
        })
      }
    />
  );
}

/** Changes what is said about a highlight (not its words): an emptied label or note is cleared. */
function EditHighlight({ highlight, onDone, onCancel }: { highlight: Highlight; onDone: () => void; onCancel: () => void }) {
  const trpc = useTRPC();
  const update = useMutation(trpc.highlights.update.mutationOptions({ onSuccess: onDone }));
  return (
    <HighlightForm
      quote={highlight.quote}
      initial={{ label: highlight.label ?? '', colour: highlight.color, note: highlight.note ?? '' }}
      submitLabel="Save changes"
      pending={update.isPending}
      error={update.error}
      onCancel={onCancel}
      onSubmit={({ label, colour, note }) => update.mutate({ highlightId: highlight.id, label: label || null, color: colour, note: note || null })}
    />
  );
}

function RedactForm({
  sessionId,
  selection,
  onDone,
  onStale,
  onCancel,
}: {
  sessionId: string;
  selection: Selection;
  onDone: () => void;
  onStale: () => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const [reason, setReason] = useState('');
  const redact = useMutation(
    trpc.redactions.redact.mutationOptions({
      onSuccess: onDone,
      // 409: the words at these offsets are not the ones selected any more (another redaction, or an edit, meanwhile).
      onError: (error) => {
        if (problemOf(error).httpStatus === 409) onStale();
      },
    }),
  );
  const stale = redact.error !== null && problemOf(redact.error).httpStatus === 409;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        redact.mutate({
          sessionId,
          utteranceId: selection.utteranceId,
          start: selection.start,
          end: selection.end,
          // The words as the researcher saw and confirmed them: the server redacts only if they are still there.
          expectedText: selection.text,
          ...(reason.trim() ? { reason: reason.trim() } : {}),
        });
      }}
    >
      <p>
        These words will be replaced by <code>[REDACTED]</code> in the stored transcript, and the recording of this answer will be silenced.{' '}
        <strong>This is permanent: it cannot be undone.</strong>
      </p>
      <blockquote>“{selection.text}”</blockquote>
      <label htmlFor="redact-reason">Reason (kept in the audit log)</label>
      <input id="redact-reason" value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} autoFocus />
      {stale ? (
        <div className="error" role="alert">
          <strong>Nothing was redacted:</strong> this line changed after you selected the words (someone else may have redacted or edited it). The transcript
          has been reloaded; close this dialog and select the words again.
        </div>
      ) : (
        <ErrorNote error={redact.error} />
      )}
      <div className="row">
        <button type="submit" className="danger" disabled={redact.isPending || stale}>
          Redact permanently
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          {stale ? 'Close' : 'Cancel'}
        </button>
      </div>
    </form>
  );
}

function AddToCollection({ highlight, onDone }: { highlight: Highlight; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const collections = useQuery(trpc.collections.list.queryOptions({ limit: 100 }));
  const [collectionId, setCollectionId] = useState('');
  const [newName, setNewName] = useState('');
  const [note, setNote] = useState('');
  const create = useMutation(trpc.collections.create.mutationOptions());
  const add = useMutation(trpc.collections.addHighlight.mutationOptions());
  const [added, setAdded] = useState<string | null>(null);
  const chosen = collectionId || collections.data?.data[0]?.id || '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let target = chosen;
    let name = collections.data?.data.find((collection) => collection.id === chosen)?.name ?? '';
    if (newName.trim()) {
      const created = await create.mutateAsync({ name: newName.trim() });
      target = created.id;
      name = created.name;
    }
    if (!target) return;
    await add.mutateAsync({ collectionId: target, highlightId: highlight.id, ...(note.trim() ? { note: note.trim() } : {}) });
    void queryClient.invalidateQueries(trpc.collections.pathFilter());
    setAdded(name);
  };

  if (added) {
    return (
      <>
        <p role="status">Added to “{added}”.</p>
        <button type="button" onClick={onDone} autoFocus>
          Close
        </button>
      </>
    );
  }
  return (
    <form onSubmit={(event) => void submit(event).catch(() => undefined)}>
      <blockquote>“{highlight.quote}”</blockquote>
      <ErrorNote error={collections.error} />
      {collections.data && collections.data.data.length > 0 && (
        <>
          <label htmlFor="collection-choice">Collection</label>
          <select id="collection-choice" value={chosen} onChange={(event) => setCollectionId(event.target.value)} disabled={Boolean(newName.trim())}>
            {collections.data.data.map((collection) => (
              <option key={collection.id} value={collection.id}>
                {collection.name} ({collection.itemCount})
              </option>
            ))}
          </select>
        </>
      )}
      <label htmlFor="collection-new">{collections.data?.data.length ? 'Or a new collection' : 'New collection'}</label>
      <input id="collection-new" value={newName} onChange={(event) => setNewName(event.target.value)} maxLength={100} autoFocus />
      <label htmlFor="collection-note">Note (optional)</label>
      <input id="collection-note" value={note} onChange={(event) => setNote(event.target.value)} />
      <ErrorNote error={create.error ?? add.error} />
      <div className="row">
        <button type="submit" disabled={add.isPending || create.isPending || (!chosen && !newName.trim())}>
          Add
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Comments({ sessionId, utteranceId, threads, onChanged }: { sessionId: string; utteranceId: string | null; threads: Thread[]; onChanged: () => void }) {
  const trpc = useTRPC();
  const id = useId();
  const [body, setBody] = useState('');
  const create = useMutation(
    trpc.comments.create.mutationOptions({
      onSuccess: () => {
        setBody('');
        onChanged();
      },
    }),
  );
  return (
    <div className="comments">
      {threads.length === 0 ? (
        <p className="muted small">No comments yet.</p>
      ) : (
        <ul>
          {threads.map((thread) => (
            <CommentThread key={thread.id} sessionId={sessionId} thread={thread} onChanged={onChanged} />
          ))}
        </ul>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate({ sessionId, ...(utteranceId ? { utteranceId } : {}), body });
        }}
      >
        <label htmlFor={id}>{utteranceId ? 'Comment on this line' : 'Comment on the session'}</label>
        <textarea id={id} value={body} onChange={(event) => setBody(event.target.value)} rows={2} />
        <ErrorNote error={create.error} />
        <button type="submit" disabled={!body.trim() || create.isPending}>
          Post comment
        </button>
      </form>
    </div>
  );
}

/**
 * One comment. Its author (the signed-in member) edits it in place: focus goes into the form, and
 * back to “Edit” on Save, Cancel or Escape. Anyone who may write deletes it.
 */
function CommentItem({ comment, onDelete, onChanged }: { comment: Comment; onDelete: () => void; onChanged: () => void }) {
  const trpc = useTRPC();
  const { session } = useAuth();
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const focusEdit = useRef(false);
  const close = () => {
    focusEdit.current = true;
    setDraft(null);
  };
  const update = useMutation(
    trpc.comments.update.mutationOptions({
      onSuccess: () => {
        close();
        onChanged();
      },
    }),
  );
  useEffect(() => {
    if (draft !== null || !focusEdit.current) return;
    focusEdit.current = false;
    editButton.current?.focus();
  }, [draft]);
  const mine = comment.author.kind === 'member' && comment.author.id === session?.member.id;
  // What was just saved, until the list read again has it (no flash of the old text).
  const shown = update.data && update.data.updatedAt > comment.updatedAt ? update.data : comment;
  return (
    <div className="comment">
      <p className="small">
        <strong>{shown.author.name}</strong> <span className="muted">{formatDateTime(shown.createdAt)}</span>
        {shown.editedAt && (
          <span className="muted">
            {' '}
            (edited <time dateTime={shown.editedAt}>{formatDateTime(shown.editedAt)}</time>)
          </span>
        )}
      </p>
      {shown.deleted ? (
        <p className="muted">This comment was deleted.</p>
      ) : draft !== null ? (
        <form
          className="comment-edit"
          onSubmit={(event) => {
            event.preventDefault();
            update.mutate({ commentId: comment.id, body: draft });
          }}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.preventDefault();
            close();
          }}
        >
          <label htmlFor={id}>Edit your comment</label>
          <textarea id={id} value={draft} onChange={(event) => setDraft(event.target.value)} rows={3} autoFocus />
          <ErrorNote error={update.error} />
          <div className="row">
            <button type="submit" disabled={!draft.trim() || update.isPending}>
              Save<span className="visually-hidden"> comment</span>
            </button>
            <button type="button" className="secondary" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p>{shown.body}</p>
          <div className="comment-tools">
            {mine && (
              <button
                type="button"
                ref={editButton}
                className="link small"
                onClick={() => {
                  update.reset();
                  setDraft(shown.body ?? '');
                }}
              >
                Edit<span className="visually-hidden"> comment</span>
              </button>
            )}
            <button type="button" className="link danger small" onClick={onDelete}>
              Delete
            </button>
          </div>
        </>
      )}
    </div>
  );
}

function CommentThread({ sessionId, thread, onChanged }: { sessionId: string; thread: Thread; onChanged: () => void }) {
  const trpc = useTRPC();
  const id = useId();
  const [reply, setReply] = useState('');
  const [replying, setReplying] = useState(false);
  const create = useMutation(
    trpc.comments.create.mutationOptions({
      onSuccess: () => {
        setReply('');
        setReplying(false);
        onChanged();
      },
    }),
  );
  const remove = useMutation(trpc.comments.delete.mutationOptions({ onSuccess: onChanged }));
  const one = (comment: Comment) => <CommentItem comment={comment} onDelete={() => remove.mutate({ commentId: comment.id })} onChanged={onChanged} />;
  return (
    <li className="thread">
      {one(thread)}
      {thread.replies.length > 0 && (
        <ul className="replies">
          {thread.replies.map((replyItem) => (
            <li key={replyItem.id}>{one(replyItem)}</li>
          ))}
        </ul>
      )}
      <ErrorNote error={remove.error} />
      {replying ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate({ sessionId, parentId: thread.id, body: reply });
          }}
        >
          <label htmlFor={id}>Reply</label>
          <textarea id={id} value={reply} onChange={(event) => setReply(event.target.value)} rows={2} autoFocus />
          <ErrorNote error={create.error} />
          <div className="row">
            <button type="submit" disabled={!reply.trim() || create.isPending}>
              Post reply
            </button>
            <button type="button" className="secondary" onClick={() => setReplying(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="link small" onClick={() => setReplying(true)}>
          Reply
        </button>
      )}
    </li>
  );
}

function Insights({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC();
  const insights = useQuery(trpc.transcripts.insights.queryOptions({ sessionId }));
  return (
    <>
      <h2 id="insights-title">Insights</h2>
      {insights.isPending ? (
        <Loading what="Loading insights" />
      ) : insights.error ? (
        <ErrorNote error={insights.error} />
      ) : (
        insights.data && (
          <>
            <p>{insights.data.summary}</p>
            {insights.data.keyQuotes.length > 0 && (
              <>
                <h3>Key quotes</h3>
                <ul>
                  {insights.data.keyQuotes.map((quote) => (
                    <li key={quote.utteranceId}>
                      <a href={`#u-${quote.utteranceId}`}>“{quote.text}”</a>
                    </li>
                  ))}
                </ul>
              </>
            )}
            {insights.data.actionItems.length > 0 && (
              <>
                <h3>Action items</h3>
                <ul>
                  {insights.data.actionItems.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              </>
            )}
            {insights.data.topics.length > 0 && (
              <>
                <h3>Topics</h3>
                <ul className="tags">
                  {insights.data.topics.map((topic) => (
                    <li key={topic.label}>{topic.label}</li>
                  ))}
                </ul>
              </>
            )}
            <p className="muted small">
              {insights.data.generatedBy === 'llm' ? 'By the configured LLM' : 'Built-in analysis'}, {formatDateTime(insights.data.generatedAt)}
            </p>
          </>
        )
      )}
    </>
  );
}
