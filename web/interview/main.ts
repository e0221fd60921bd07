import { EMBED_MESSAGE_SOURCE, type InterviewPageConfig } from '../../shared/interview-page-config.js';
import type { TInterviewState, TTurn } from '../../shared/schemas/sessions.js';
import { ApiError, ConnectionLost, type PendingCall, ParticipantApi } from './api.js';
import { messagesFor } from './messages.js';
import { AnswerRecorder, fileNameFor } from './recorder.js';
import { Speaker } from './speech.js';
import { resolveTheme } from './theme.js';

/**
 * The participant's interview (design.md "Embed"): welcome, consent when the campaign asks for
 * it, one question at a time (typed, spoken or picked), pause and resume, the completed screen
 * with its feedback form, and a clear screen for every way it can fail. Inside the SDK's iframe
 * it posts its events to `parentOrigin` only.
 */

type EventType = 'start' | 'progress' | 'pause' | 'resume' | 'completed' | 'error';

const HEARTBEAT_MS = 30_000;

const config = JSON.parse(document.getElementById('interview-config')!.textContent!) as InterviewPageConfig;
const t = messagesFor(config.language);
const app = document.getElementById('app')!;
const announcer = document.getElementById('announcer')!;
const speaker = new Speaker(config.language, config.voice);
const recorder = new AnswerRecorder();
const api = config.token ? new ParticipantApi(config.token) : null;

let state: TInterviewState | null = null;
let started = false;
let heartbeat: number | undefined;
/** What the participant typed for the pending question: kept until the server has taken it. */
let draft = '';
/** The conversation so far, shown above the question. */
const conversation: { who: 'ai' | 'participant'; text: string }[] = [];

// ---------------------------------------------------------------------------------------------
// Small DOM helpers: the page is a handful of screens, built from elements (never from HTML text).

type Child = Node | string | null | undefined | false;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string | boolean>> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === false || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

function button(label: string, onClick: () => void, className = 'primary'): HTMLButtonElement {
  const element = h('button', { type: 'button', class: className }, label);
  element.addEventListener('click', onClick);
  return element;
}

/** Replaces the screen and moves focus to its heading, so keyboard and screen reader users start there. */
function show(...children: Child[]): void {
  app.replaceChildren(...children.filter((child): child is Node | string => !!child));
  const heading = app.querySelector<HTMLElement>('h1, h2');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
}

function announce(text: string): void {
  announcer.textContent = '';
  // A change the live region sees even when the same text comes twice.
  setTimeout(() => (announcer.textContent = text), 50);
}

// ---------------------------------------------------------------------------------------------
// Events for the host page: only inside the embed, only to the origin it named.

function emit(type: EventType, payload: Record<string, unknown> = {}): void {
  if (config.mode !== 'embed' || !config.parentOrigin || window.parent === window) return;
  window.parent.postMessage({ source: EMBED_MESSAGE_SOURCE, type, payload }, config.parentOrigin);
}

// ---------------------------------------------------------------------------------------------
// Screens

function applyTheme(): void {
  const theme = resolveTheme(config.theme);
  const style = document.documentElement.style;
  style.setProperty('--primary', theme.primary);
  style.setProperty('--on-primary', theme.onPrimary);
  style.setProperty('--accent', theme.accent);
  style.setProperty('--background', theme.background);
  style.setProperty('--text', theme.text);
  style.setProperty('--muted', theme.muted);
}

function showError(message: string, heading = t.errorHeading): void {
  stopHeartbeat();
  recorder.cancel();
  speaker.stop();
  show(h('h1', {}, heading), h('p', { role: 'alert' }, message));
  emit('error', { message });
}

function showConnectionLost(retry: () => void): void {
  stopHeartbeat();
  const again = button(t.tryAgain, () => {
    again.disabled = true;
    retry();
  });
  show(h('h1', {}, t.connectionHeading), h('p', { role: 'alert' }, t.connectionText), again);
  emit('error', { message: 'The connection to the interview service was lost.' });
}

/**
 * Runs a call; a lost connection offers "Try again": the screen the call came from is drawn again
 * (`redraw`, its controls busy) and the same call runs again under the same Idempotency-Key. An
 * API refusal ends on its message unless `onRefused` takes it. `onDone` and `onRefused` draw what
 * comes next themselves: the elements of the first screen may be gone by then.
 */
async function attempt<T>(
  call: PendingCall<T>,
  onDone: (value: T) => void | Promise<void>,
  onRefused?: (error: ApiError) => boolean,
  redraw?: () => void,
): Promise<void> {
  try {
    const value = await call.run();
    await onDone(value);
  } catch (error) {
    if (error instanceof ConnectionLost) {
      showConnectionLost(() => {
        redraw?.();
        void attempt(call, onDone, onRefused, redraw);
      });
    } else if (error instanceof ApiError) {
      if (!onRefused?.(error)) showError(t.refusals[error.code] ?? error.message);
    } else {
      showError(t.unexpected);
      throw error;
    }
  }
}

function showWelcome(): void {
  const readAloud = h('input', { type: 'checkbox', id: 'read-aloud', checked: true });
  const start = button(t.startInterview, () => {
    start.disabled = true;
    start.textContent = t.starting;
    speaker.enabled = readAloud.checked;
    // iOS lets a page speak only after speech began inside a user gesture.
    speaker.speak(' ');
    void startInterview();
  });
  show(
    h('h1', {}, t.welcomeHeading(config.campaignName ?? '')),
    config.organizationName ? h('p', {}, t.welcomeInvitedBy(config.organizationName, config.participantName)) : null,
    h('p', {}, t.welcomeHow),
    h('p', { class: 'muted' }, t.welcomePrivacy),
    h('p', { class: 'option' }, readAloud, h('label', { for: 'read-aloud' }, t.readAloud)),
    start,
  );
}

function startInterview(): Promise<void> {
  return attempt(api!.post<TInterviewState>('/api/interview/start'), (next) => {
    if (!started) {
      started = true;
      emit('start');
    }
    route(next);
  });
}

/** Shows what the session's state calls for. */
function route(next: TInterviewState, closing?: string): void {
  state = next;
  const { session, turn } = next;
  if (session.status === 'completed') return showCompleted(closing ?? next.closing);
  if (session.status === 'abandoned') return showError(t.endedText);
  if (session.status === 'paused') return showPaused();
  startHeartbeat();
  if (session.consentRequired && !session.consent) return showConsent();
  if (!turn) return showError(t.unexpected);
  emit('progress', { status: 'in_progress' });
  showQuestion(turn);
}

function showConsent(): void {
  const sessionId = state!.session.id;
  const decide = (granted: boolean) => {
    for (const control of app.querySelectorAll('button')) control.disabled = true;
    void attempt(api!.post(`/v1/sessions/${sessionId}/consent`, { granted, type: 'all' }), () => {
      if (granted) return startInterview();
      stopHeartbeat();
      show(h('h1', {}, t.declinedHeading), h('p', {}, t.declinedText));
      emit('error', { message: 'The participant did not consent; the interview did not take place.' });
    });
  };
  show(h('h1', {}, t.consentHeading), h('p', {}, t.consentText), h('div', { class: 'actions' }, button(t.consentAgree, () => decide(true)), button(t.consentDecline, () => decide(false), 'secondary')));
}

function conversationLog(): HTMLElement | null {
  if (conversation.length === 0) return null;
  return h(
    'ol',
    { class: 'conversation', 'aria-label': 'Conversation so far' },
    ...conversation.map((entry) => h('li', { class: entry.who }, h('span', { class: 'who' }, entry.who === 'ai' ? t.interviewer : t.you), ' ', entry.text)),
  );
}

function header(): HTMLElement {
  const { session, turn } = state!;
  // A follow-up or a question asked again is still the same question.
  const current = Math.max(1, Math.min(session.questionsAnswered + (turn?.kind === 'question' ? 1 : 0), session.totalQuestions));
  const progress = h('progress', { max: String(session.totalQuestions), value: String(session.questionsAnswered), 'aria-label': t.progress(current, session.totalQuestions) });
  return h('div', { class: 'header' }, h('span', { class: 'muted' }, t.progress(current, session.totalQuestions)), progress, button(t.pause, pauseInterview, 'secondary'));
}

/** `notice`: a line under the question (why an answer was refused); `sending`: drawn busy, an answer on its way. */
function showQuestion(turn: TTurn, options: { notice?: string; sending?: boolean } = {}): void {
  const answerArea = h('div', { class: 'answer' });
  const status = h('p', { class: 'muted status', role: 'status' }, options.notice ?? (options.sending ? t.sending : ''));
  const controls: (HTMLButtonElement | HTMLInputElement | HTMLTextAreaElement)[] = [];
  const busy = (on: boolean) => controls.forEach((control) => (control.disabled = on));

  const submit = (body: Record<string, unknown> | FormData, shown: string) => {
    busy(true);
    status.textContent = t.sending;
    recorder.cancel();
    void attempt(
      api!.post<TInterviewState>('/api/interview/answer', body),
      (next) => {
        draft = '';
        conversation.push({ who: 'ai', text: turn.text }, { who: 'participant', text: shown });
        route(next);
      },
      (error) => {
        // A retry that arrived after the answer was taken: carry on from where the session is.
        if (error.code === 'TURN_ALREADY_ANSWERED') {
          void startInterview();
          return true;
        }
        // A refused answer (a recording without consent, too long, unreadable): the question stays, to answer again.
        if (error.status === 400 || error.status === 413 || error.status === 415 || error.status === 422 || error.code === 'RECORDING_NOT_CONSENTED') {
          showQuestion(turn, { notice: t.refusals[error.code] ?? error.message });
          return true;
        }
        return false;
      },
      () => showQuestion(turn, { sending: true }),
    );
  };
  const sendText = (text: string) => submit({ text, utteranceId: turn.utteranceId }, text);

  const { question } = turn;
  if (question.type === 'yes_no' || question.type === 'multiple_choice') {
    const options = question.type === 'yes_no' ? ['Yes', 'No'] : (question.options ?? []);
    const group = h('div', { class: 'choices', role: 'group', 'aria-label': t.chooseOne });
    for (const option of options) {
      const choice = button(option, () => sendText(option), 'choice');
      controls.push(choice);
      group.append(choice);
    }
    answerArea.append(group);
  } else if (question.type === 'rating') {
    const min = question.scale?.min ?? 1;
    const max = question.scale?.max ?? 5;
    const fieldset = h('fieldset', { class: 'rating' }, h('legend', {}, t.chooseOne));
    for (let value = min; value <= max; value++) {
      const radio = h('input', { type: 'radio', name: 'rating', value: String(value) });
      controls.push(radio);
      // The whole chip is the label: a click anywhere on it picks the value.
      fieldset.append(h('label', { class: 'rating-option' }, radio, String(value)));
    }
    const scaleLabels = question.scale?.minLabel || question.scale?.maxLabel ? h('p', { class: 'muted scale' }, `${min}: ${question.scale?.minLabel ?? ''} · ${max}: ${question.scale?.maxLabel ?? ''}`) : null;
    const send = button(t.send, () => {
      const picked = fieldset.querySelector<HTMLInputElement>('input:checked');
      if (picked) sendText(picked.value);
    });
    send.disabled = true;
    fieldset.addEventListener('change', () => (send.disabled = false));
    controls.push(send);
    answerArea.append(fieldset, scaleLabels ?? '', h('div', { class: 'actions' }, send));
  } else {
    const textarea = h('textarea', { id: 'answer', rows: '4', maxlength: '10000' });
    textarea.value = draft;
    textarea.addEventListener('input', () => (draft = textarea.value));
    const send = button(t.send, () => {
      if (textarea.value.trim()) sendText(textarea.value.trim());
      else textarea.focus();
    });
    // Ctrl/Cmd+Enter sends; Enter alone is a new line in a long answer.
    textarea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) send.click();
    });
    controls.push(textarea, send);
    answerArea.append(h('label', { for: 'answer' }, t.yourAnswer), textarea, h('div', { class: 'actions' }, send, recordButton(turn, submit, controls, status)));
  }

  show(
    header(),
    conversationLog(),
    h('section', { class: 'question', 'aria-labelledby': 'question-text' }, h('p', { class: 'who' }, t.interviewer), h('h2', { id: 'question-text' }, turn.text), answerArea, status),
  );
  if (options.sending) busy(true);
  // Drawn again (a refusal, a retry): the question was already announced and spoken.
  if (options.notice !== undefined || options.sending) return;
  announce(turn.text);
  speaker.speak(turn.text, turn.audioUrl);
}

/** "Record" / "Stop recording": the recording is the answer; the server transcribes it. */
function recordButton(
  turn: TTurn,
  submit: (body: FormData, shown: string) => void,
  controls: (HTMLButtonElement | HTMLInputElement | HTMLTextAreaElement)[],
  status: HTMLElement,
): HTMLButtonElement | null {
  if (!AnswerRecorder.supported()) return null;
  const record: HTMLButtonElement = button(
    t.record,
    async () => {
      if (!recorder.recording) {
        speaker.stop();
        // Until the microphone is granted: a second click must not open a second one.
        record.disabled = true;
        try {
          await recorder.start();
        } catch {
          status.textContent = t.microphoneDenied;
          return;
        } finally {
          record.disabled = false;
        }
        record.textContent = t.stopRecording;
        record.setAttribute('aria-pressed', 'true');
        status.textContent = t.recording;
        return;
      }
      record.textContent = t.record;
      record.setAttribute('aria-pressed', 'false');
      const { audio } = await recorder.stop();
      const form = new FormData();
      form.append('audio', audio, fileNameFor(audio.type));
      form.append('utteranceId', turn.utteranceId);
      submit(form, `🎤 ${t.voiceAnswer}`);
    },
    'secondary',
  );
  record.setAttribute('aria-pressed', 'false');
  controls.push(record);
  return record;
}

function pauseInterview(): void {
  const sessionId = state!.session.id;
  recorder.cancel();
  speaker.stop();
  void attempt(api!.post(`/v1/sessions/${sessionId}/pause`, {}), () => {
    stopHeartbeat();
    emit('pause');
    showPaused();
  });
}

function showPaused(): void {
  const sessionId = state!.session.id;
  const resume = button(t.resume, () => {
    resume.disabled = true;
    void attempt(api!.post(`/v1/sessions/${sessionId}/resume`, {}), () => {
      emit('resume');
      return startInterview();
    });
  });
  show(h('h1', {}, t.pausedHeading), h('p', {}, t.pausedText), resume);
}

let closingWords: string | undefined;
let feedbackSent = false;

function showCompleted(closing: string | undefined): void {
  stopHeartbeat();
  speaker.stop();
  closingWords = closing;
  emit('completed', { sessionId: state!.session.id });
  if (closing) {
    announce(closing);
    speaker.speak(closing);
  }
  drawCompleted();
}

/** The completed screen: the closing words, then the feedback form or the thanks for it. */
function drawCompleted(sending = false): void {
  const feedback = feedbackSent ? h('p', { role: 'status' }, t.feedbackThanks) : feedbackForm(sending);
  show(h('h1', {}, t.completedHeading), h('p', {}, closingWords ?? t.completedText), feedback);
}

function feedbackForm(sending: boolean): HTMLElement {
  const form = h('form', { class: 'feedback', 'aria-labelledby': 'feedback-heading' });
  const rating = h('fieldset', { class: 'rating' }, h('legend', {}, t.feedbackOverall));
  for (let value = 1; value <= 5; value++) {
    rating.append(h('label', { class: 'rating-option' }, h('input', { type: 'radio', name: 'overall', value: String(value), 'aria-label': t.ratingLabel(value, 5) }), String(value)));
  }
  const comments = h('textarea', { id: 'feedback-comments', rows: '3', maxlength: '5000' });
  const issues = h('textarea', { id: 'feedback-issues', rows: '2', maxlength: '5000' });
  const submit = h('button', { type: 'submit', class: 'primary', disabled: sending }, t.submitFeedback);
  form.append(
    h('h2', { id: 'feedback-heading' }, t.feedbackHeading),
    rating,
    h('label', { for: 'feedback-comments' }, t.feedbackComments),
    comments,
    h('label', { for: 'feedback-issues' }, t.feedbackIssues),
    issues,
    h('div', { class: 'actions' }, submit),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    const picked = rating.querySelector<HTMLInputElement>('input:checked');
    const body = {
      overall_rating: picked ? Number(picked.value) : null,
      comments: comments.value.trim() || null,
      technical_issues: issues.value.trim() || null,
    };
    const thanked = () => {
      feedbackSent = true;
      drawCompleted();
    };
    void attempt(
      api!.post('/api/interview/feedback', body),
      thanked,
      (error) => {
        if (error.code !== 'FEEDBACK_ALREADY_SUBMITTED') return false;
        thanked();
        return true;
      },
      () => drawCompleted(true),
    );
  });
  return form;
}

// ---------------------------------------------------------------------------------------------
// Heartbeats keep an open interview from being taken as abandoned while the participant thinks.

function startHeartbeat(): void {
  if (heartbeat !== undefined || !state) return;
  heartbeat = window.setInterval(() => {
    if (!state || !config.token) return;
    void fetch(`/v1/sessions/${state.session.id}/heartbeat`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${config.token}`, 'Content-Type': 'application/json' },
      body: '{}',
      credentials: 'omit',
    }).then(
      (response) => {
        // Ended elsewhere (another tab, timed out, the customer's API): say so now, not at the next answer.
        if (response.status === 409) showError(t.endedText);
      },
      () => undefined,
    );
  }, HEARTBEAT_MS);
}

function stopHeartbeat(): void {
  window.clearInterval(heartbeat);
  heartbeat = undefined;
}

// ---------------------------------------------------------------------------------------------

applyTheme();
if (config.closed || !api) showError(config.closed?.message ?? t.unexpected);
else showWelcome();
