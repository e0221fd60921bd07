import { EMBED_MESSAGE_SOURCE, type InterviewPageConfig } from '../../shared/interview-page-config.js';
import type { TInterviewState, TTurn } from '../../shared/schemas/sessions.js';
import { ApiError, ConnectionLost, type PendingCall, ParticipantApi } from './api.js';
import { isMessageKey, translator } from '../../shared/i18n/translate.js';
import { renderQuestionMedia } from './question-media.js';
import { AnswerRecorder, fileNameFor } from './recorder.js';
import { Speaker } from './speech.js';
import { resolveTheme } from './theme.js';
import type { TVoiceTiming } from '../../shared/schemas/turn-taking.js';
import { VoiceConversation, type VoiceState } from './voice/conversation.js';
import { Microphone } from './voice/microphone.js';
import { encodeWav } from './voice/wav.js';

/**
 * The participant's interview (design.md "Embed"): welcome, consent when the campaign asks for
 * it, one question at a time (typed, spoken or picked), pause and resume, the completed screen
 * with its feedback form, and a clear screen for every way it can fail. Inside the SDK's iframe
 * it posts its events to `parentOrigin` only.
 */

type EventType = 'start' | 'progress' | 'pause' | 'resume' | 'completed' | 'error';

const HEARTBEAT_MS = 30_000;

const config = JSON.parse(document.getElementById('interview-config')!.textContent!) as InterviewPageConfig;
const t = translator(config.language);

/** What a participant is told for an API refusal: theirs in their language; the API's own message is for developers. */
function refusal(error: ApiError): string {
  const key = `refusal.${error.code}`;
  return isMessageKey(key) ? t(key) : error.message;
}
const app = document.getElementById('app')!;
const announcer = document.getElementById('announcer')!;
const speaker = new Speaker(config.language, config.voice);
const recorder = new AnswerRecorder();
const api = config.token ? new ParticipantApi(config.token) : null;

/** Voice mode: the participant speaks and the page listens (the default with a microphone); null: text mode. */
let voice: VoiceConversation | null = null;
/** Voice mode's microphone and speech detector, being made ready while the interview starts. */
let voiceReady: Promise<void> = Promise.resolve();
/** Why voice mode ended before the first question (the microphone refused): said once, on the first question. */
let voiceNotice: string | undefined;

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

/**
 * Lays a rating scale's points out evenly: one row where it fits, else rows of at most six
 * with as many points in each (0–10: 6 and 5, not 10 and 1). Set through the CSSOM, which
 * the page's CSP allows, unlike a style attribute.
 */
function evenScale(fieldset: HTMLFieldSetElement, points: number): HTMLFieldSetElement {
  fieldset.style.setProperty('--points', String(points));
  fieldset.style.setProperty('--points-narrow', String(Math.ceil(points / Math.ceil(points / 6))));
  return fieldset;
}

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string | boolean>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
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
  // The latest exchange in view: what was just said, and heard.
  const log = app.querySelector<HTMLElement>('.conversation');
  if (log) log.scrollTop = log.scrollHeight;
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

function showError(message: string, heading = t('page.error.heading')): void {
  stopHeartbeat();
  recorder.cancel();
  voice?.stop();
  speaker.stop();
  show(h('h1', {}, heading), h('p', { role: 'alert' }, message));
  emit('error', { message });
}

function showConnectionLost(retry: () => void): void {
  stopHeartbeat();
  voice?.stop();
  const again = button(t('page.tryAgain'), () => {
    again.disabled = true;
    retry();
  });
  show(h('h1', {}, t('page.connection.heading')), h('p', { role: 'alert' }, t('page.connection.text')), again);
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
      if (!onRefused?.(error)) showError(refusal(error));
    } else {
      showError(t('page.unexpected'));
      throw error;
    }
  }
}

function showWelcome(): void {
  const readAloud = h('input', { type: 'checkbox', id: 'read-aloud', checked: true });
  const readAloudOption = h('p', { class: 'option' }, readAloud, h('label', { for: 'read-aloud' }, t('page.readAloud')));
  const canListen = Microphone.supported() && !!config.voiceAssets;
  const byVoice = h('input', {
    type: 'radio',
    name: 'answer-mode',
    id: 'mode-voice',
    value: 'voice',
    checked: canListen,
    disabled: !canListen,
    'aria-describedby': 'mode-voice-hint',
  });
  const byTyping = h('input', { type: 'radio', name: 'answer-mode', id: 'mode-typing', value: 'typing', checked: !canListen });
  const noMicrophone = h('p', { class: 'muted', role: 'status' }, canListen ? '' : t('page.mode.noMicrophone'));
  const modes = h(
    'fieldset',
    { class: 'modes' },
    h('legend', {}, t('page.mode.legend')),
    h(
      'div',
      { class: 'mode' },
      byVoice,
      h('label', { for: 'mode-voice' }, t('page.mode.voice')),
      h('p', { class: 'muted mode-hint', id: 'mode-voice-hint' }, t('page.mode.voiceHint')),
    ),
    h('div', { class: 'mode' }, byTyping, h('label', { for: 'mode-typing' }, t('page.mode.typing'))),
  );
  // Reading aloud is a choice of text mode: voice mode always speaks.
  const chosen = () => (readAloudOption.hidden = byVoice.checked);
  modes.addEventListener('change', chosen);
  chosen();
  if (canListen) {
    void Microphone.present().then((present) => {
      if (present || !byVoice.checked) return;
      byVoice.checked = false;
      byVoice.disabled = true;
      byTyping.checked = true;
      noMicrophone.textContent = t('page.mode.noMicrophone');
      chosen();
    });
  }
  const start = button(t('page.start'), () => {
    start.disabled = true;
    start.textContent = t('page.starting');
    for (const input of modes.querySelectorAll('input')) input.disabled = true;
    speaker.enabled = byVoice.checked || readAloud.checked;
    // iOS lets a page play sound only on what first played inside a tap: this one.
    const silence = URL.createObjectURL(encodeWav([new Float32Array(1600)]));
    speaker.unlock(silence);
    if (byVoice.checked) startVoice();
    void startInterview();
  });
  show(
    h('h1', {}, config.campaignName ?? ''),
    config.organizationName
      ? h(
          'p',
          {},
          t('page.welcome.invitedBy', {
            organization: config.organizationName,
            name: config.participantName ?? '',
            hasName: config.participantName ? 'yes' : 'no',
          }),
        )
      : null,
    h('p', {}, t('page.welcome.how')),
    h('p', { class: 'muted' }, t('page.welcome.privacy')),
    modes,
    noMicrophone,
    readAloudOption,
    start,
  );
}

/**
 * Voice mode, from the participant's click: the audio context is made inside it (browsers start
 * audio only from a gesture), the microphone asked for and the speech detector loaded while the
 * interview starts. A refused microphone is text mode, said on the first question.
 */
function startVoice(): void {
  const context = new AudioContext();
  void context.resume().catch(() => undefined);
  const conversation = new VoiceConversation(new Microphone(context, config.voiceAssets!.captureWorklet), speaker, config.turnTaking);
  voice = conversation;
  voiceReady = conversation.prepare().catch(() => {
    conversation.stop();
    voice = null;
    voiceNotice = t('page.microphoneDenied');
  });
}

function startInterview(): Promise<void> {
  // The SDK's `voice` (the embed's query) chooses the voice of the server's spoken turns too.
  const sdkVoice = config.mode === 'embed' ? new URLSearchParams(window.location.search).get('voice') : null;
  return attempt(api!.post<TInterviewState>('/api/interview/start', sdkVoice ? { voice: sdkVoice } : undefined), async (next) => {
    await voiceReady;
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
  if (session.status === 'abandoned') return showError(t('page.ended'));
  if (session.status === 'paused') return showPaused();
  startHeartbeat();
  if (session.consentRequired && !session.consent) return showConsent();
  if (!turn) return showError(t('page.unexpected'));
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
      show(h('h1', {}, t('page.declined.heading')), h('p', {}, t('page.declined.text')));
      emit('error', { message: 'The participant did not consent; the interview did not take place.' });
    });
  };
  show(
    h('h1', {}, t('page.consent.heading')),
    h('p', {}, t('page.consent.text')),
    h(
      'div',
      { class: 'actions' },
      button(t('page.consent.agree'), () => decide(true)),
      button(t('page.consent.decline'), () => decide(false), 'secondary'),
    ),
  );
}

function conversationLog(): HTMLElement | null {
  if (conversation.length === 0) return null;
  return h(
    'ol',
    { class: 'conversation', 'aria-label': 'Conversation so far' },
    ...conversation.map((entry) =>
      h('li', { class: entry.who }, h('span', { class: 'who' }, entry.who === 'ai' ? t('page.interviewer') : t('page.you')), ' ', entry.text),
    ),
  );
}

function header(): HTMLElement {
  const { session, turn } = state!;
  // A follow-up or a question asked again is still the same question.
  const current = Math.max(1, Math.min(session.questionsAnswered + (turn?.kind === 'question' ? 1 : 0), session.totalQuestions));
  const progress = h('progress', {
    max: String(session.totalQuestions),
    value: String(session.questionsAnswered),
    'aria-label': t('page.progress', { current, total: session.totalQuestions }),
  });
  return h(
    'div',
    { class: 'header' },
    h('span', { class: 'muted' }, t('page.progress', { current, total: session.totalQuestions })),
    progress,
    button(t('page.pause'), pauseInterview, 'secondary'),
  );
}

type Control = HTMLButtonElement | HTMLInputElement | HTMLTextAreaElement;

interface QuestionOptions {
  /** A line under the question (why an answer was refused). */
  notice?: string | undefined;
  /** Drawn busy: an answer on its way. */
  sending?: boolean | undefined;
}

/**
 * Sends an answer to `turn`; `shown` is what the conversation keeps of it (a spoken answer: what
 * the service heard). A refusal that leaves the question open draws it again through `refused`.
 */
function submitAnswer(
  turn: TTurn,
  body: Record<string, unknown> | FormData,
  shown: (next: TInterviewState) => string,
  refused: (notice: string) => void,
): void {
  recorder.cancel();
  void attempt(
    api!.post<TInterviewState>('/api/interview/answer', body),
    (next) => {
      draft = '';
      conversation.push({ who: 'ai', text: turn.text }, { who: 'participant', text: shown(next) });
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
        refused(refusal(error));
        return true;
      }
      return false;
    },
    () => showQuestion(turn, { sending: true }),
  );
}

/**
 * A read-back of an answer heard unsurely (`check_heard`): what was heard in a box to correct.
 * "That's right" sends it back unchanged (the service takes it as heard); "Correct it" sends the
 * edited text, which counts instead. `onEdit`: the participant started typing.
 */
function heardCheckControls(turn: TTurn, sendText: (text: string) => void, controls: Control[], onEdit?: () => void): HTMLElement {
  const heard = turn.heard ?? '';
  const box = h('textarea', { id: 'heard', rows: '3', maxlength: '10000' });
  box.value = draft || heard;
  const changed = () => box.value.trim() !== heard.trim();
  const confirm = button(t('page.heard.confirm'), () => sendText(heard));
  const correct = button(
    t('page.heard.correct'),
    () => {
      if (box.value.trim()) sendText(box.value.trim());
      else box.focus();
    },
    'secondary',
  );
  const sync = () => {
    // One meaning per button: what was heard, or the correction.
    confirm.disabled = changed();
    correct.disabled = !changed();
  };
  box.addEventListener('input', () => {
    draft = box.value;
    sync();
    onEdit?.();
  });
  box.addEventListener('focus', () => onEdit?.());
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) (changed() ? correct : confirm).click();
  });
  controls.push(box, confirm, correct);
  sync();
  return h(
    'div',
    { class: 'answer heard-check' },
    h('label', { for: 'heard' }, t('page.heard.label')),
    box,
    h('p', { class: 'muted' }, t('page.heard.hint')),
    h('div', { class: 'actions' }, confirm, correct),
  );
}

/** The question's own answer controls: the text box (and Record), the choices, or the rating scale. */
function answerControls(
  turn: TTurn,
  sendText: (text: string) => void,
  submit: (body: FormData, shown: string) => void,
  controls: Control[],
  status: HTMLElement,
  record: boolean,
): HTMLElement {
  if (turn.kind === 'check_heard') {
    const check = heardCheckControls(turn, sendText, controls);
    // Saying it again is an answer too.
    const again = record ? recordButton(turn, submit, controls, status) : null;
    if (again) check.querySelector('.actions')!.append(again);
    return check;
  }
  const answerArea = h('div', { class: 'answer' });
  const { question } = turn;
  if (question.type === 'yes_no' || question.type === 'multiple_choice') {
    const options = question.type === 'yes_no' ? [t('page.yes'), t('page.no')] : (question.options ?? []);
    const group = h('div', { class: 'choices', role: 'group', 'aria-label': t('page.chooseOne') });
    for (const option of options) {
      const choice = button(option, () => sendText(option), 'choice');
      controls.push(choice);
      group.append(choice);
    }
    answerArea.append(group);
  } else if (question.type === 'rating') {
    const min = question.scale?.min ?? 1;
    const max = question.scale?.max ?? 5;
    const fieldset = h('fieldset', { class: 'rating' }, h('legend', {}, t('page.chooseOne')));
    for (let value = min; value <= max; value++) {
      const radio = h('input', { type: 'radio', name: 'rating', value: String(value) });
      controls.push(radio);
      // The whole chip is the label: a click anywhere on it picks the value.
      fieldset.append(h('label', { class: 'rating-option' }, radio, String(value)));
    }
    evenScale(fieldset, max - min + 1);
    const scaleLabels =
      question.scale?.minLabel || question.scale?.maxLabel
        ? h('p', { class: 'muted scale' }, `${min}: ${question.scale?.minLabel ?? ''} · ${max}: ${question.scale?.maxLabel ?? ''}`)
        : null;
    const send = button(t('page.send'), () => {
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
    const send = button(t('page.send'), () => {
      if (textarea.value.trim()) sendText(textarea.value.trim());
      else textarea.focus();
    });
    // Ctrl/Cmd+Enter sends; Enter alone is a new line in a long answer.
    textarea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) send.click();
    });
    controls.push(textarea, send);
    answerArea.append(
      h('label', { for: 'answer' }, t('page.yourAnswer')),
      textarea,
      h('div', { class: 'actions' }, send, record ? recordButton(turn, submit, controls, status) : null),
    );
  }
  return answerArea;
}

function questionSection(turn: TTurn, ...children: Child[]): HTMLElement {
  return h(
    'section',
    { class: 'question', 'aria-labelledby': 'question-text' },
    h('p', { class: 'who' }, t('page.interviewer')),
    h('h2', { id: 'question-text' }, turn.text),
    renderQuestionMedia(turn),
    ...children,
  );
}

function showQuestion(turn: TTurn, options: QuestionOptions = {}): void {
  if (voice) return showVoiceQuestion(turn, options);
  const status = h('p', { class: 'muted status', role: 'status' }, options.notice ?? voiceNotice ?? (options.sending ? t('page.sending') : ''));
  voiceNotice = undefined;
  const controls: Control[] = [];
  const busy = (on: boolean) => controls.forEach((control) => (control.disabled = on));

  const submit = (body: Record<string, unknown> | FormData, shown: string) => {
    busy(true);
    status.textContent = t('page.sending');
    submitAnswer(
      turn,
      body,
      () => shown,
      (notice) => showQuestion(turn, { notice }),
    );
  };
  const sendText = (text: string) => submit({ text, utteranceId: turn.utteranceId }, text);

  show(header(), conversationLog(), questionSection(turn, answerControls(turn, sendText, submit, controls, status, true), status));
  if (options.sending) busy(true);
  // Drawn again (a refusal, a retry): the question was already announced and spoken.
  if (options.notice !== undefined || options.sending) return;
  announce(turn.text);
  void speaker.speak(turn.text, turn.audioUrl);
}

/** What each voice state says on screen; the live region says the ones that need the participant. */
const VOICE_STATE_TEXT: Record<VoiceState, Parameters<typeof t>[0]> = {
  speaking: 'page.voice.speaking',
  listening: 'page.voice.listening',
  hearing: 'page.voice.hearing',
  thinking: 'page.voice.thinking',
  moment: 'page.voice.moment',
  muted: 'page.voice.muted',
  typing: 'page.voice.typing',
};
const ANNOUNCED_STATES = new Set<VoiceState>(['listening', 'thinking', 'moment', 'muted']);

/**
 * A question in voice mode: the AI speaks it, the page listens and sends the answer when the
 * participant has finished, with no touch needed. The controls are for the participant who wants
 * them: "I'm done", "I need a moment", mute, typing (the question's own controls) and back, pause.
 */
function showVoiceQuestion(turn: TTurn, options: QuestionOptions): void {
  const conversationNow = voice!;
  const label = h('p', { class: 'voice-label', id: 'voice-label' });
  const hint = h('p', { class: 'muted voice-hint' }, t('page.voice.hint'));
  const indicator = h('div', { class: 'voice-indicator', 'aria-hidden': 'true' }, h('span', { class: 'voice-dot' }));
  const panel = h('div', { class: 'voice-panel' }, indicator, h('div', { class: 'voice-text' }, label, hint));
  const status = h('p', { class: 'muted status', role: 'status' }, options.notice ?? '');

  const done = button(t('page.voice.done'), () => conversationNow.finishAnswer(), 'secondary');
  const moment = button(t('page.voice.needMoment'), () => conversationNow.setHeld(!conversationNow.held), 'secondary');
  const mute = button(t('page.voice.mute'), () => conversationNow.setMuted(!conversationNow.muted), 'secondary');
  const typeSwitch = button(t('page.voice.type'), () => conversationNow.setTyping(true), 'secondary');
  const voiceControls = h('div', { class: 'actions voice-controls', role: 'group', 'aria-label': t('page.voice.controls') }, done, moment, mute, typeSwitch);

  const controls: Control[] = [];
  const submitTyped = (body: Record<string, unknown>, shown: string) => {
    controls.forEach((control) => (control.disabled = true));
    submitAnswer(
      turn,
      body,
      () => shown,
      (notice) => showQuestion(turn, { notice }),
    );
  };
  const sendText = (text: string) => submitTyped({ text, utteranceId: turn.utteranceId, voiceTiming: conversationNow.typedTiming() }, text);
  const backToVoice = button(t('page.voice.speak'), () => conversationNow.setTyping(false), 'secondary');
  // A read-back is answered by voice (yes, or the answer again) or in its box, both in view; typing in the box holds the listening.
  const check = turn.kind === 'check_heard' ? heardCheckControls(turn, sendText, controls, () => conversationNow.setHeld(true)) : null;
  const typing = check
    ? h('div', { class: 'typing' })
    : h(
        'div',
        { class: 'typing' },
        answerControls(turn, sendText, () => undefined, controls, status, false),
        h('div', { class: 'actions' }, backToVoice),
      );

  const render = (voiceState: VoiceState) => {
    panel.dataset.state = voiceState;
    label.textContent = t(VOICE_STATE_TEXT[voiceState]);
    const listening = voiceState === 'listening' || voiceState === 'hearing' || voiceState === 'moment';
    hint.hidden = voiceState !== 'listening';
    done.hidden = !listening;
    moment.hidden = !(listening || voiceState === 'speaking');
    moment.textContent = conversationNow.held ? t('page.voice.continue') : t('page.voice.needMoment');
    moment.setAttribute('aria-pressed', String(conversationNow.held));
    mute.textContent = conversationNow.muted ? t('page.voice.unmute') : t('page.voice.mute');
    mute.setAttribute('aria-pressed', String(conversationNow.muted));
    mute.hidden = voiceState === 'thinking' || voiceState === 'typing';
    typeSwitch.hidden = voiceState === 'thinking' || voiceState === 'typing' || check !== null;
    typing.hidden = voiceState !== 'typing';
    panel.hidden = voiceState === 'typing';
    if (voiceState === 'typing' && !typing.contains(document.activeElement)) controls[0]?.focus();
  };

  show(header(), conversationLog(), questionSection(turn, panel, check, voiceControls, typing, status));
  const handlers = {
    state(voiceState: VoiceState) {
      render(voiceState);
      if (ANNOUNCED_STATES.has(voiceState)) announce(t(VOICE_STATE_TEXT[voiceState]));
    },
    answer(audio: Blob, timing: TVoiceTiming) {
      const form = new FormData();
      form.append('audio', audio, 'answer.wav');
      form.append('utteranceId', turn.utteranceId);
      form.append('voiceTiming', JSON.stringify(timing));
      submitAnswer(
        turn,
        form,
        (next) => next.heard?.text ?? `🎤 ${t('page.voiceAnswer')}`,
        (notice) => showQuestion(turn, { notice }),
      );
    },
  };
  if (options.sending) return render('thinking');
  render(conversationNow.typing ? 'typing' : conversationNow.muted ? 'muted' : 'speaking');
  // Drawn again after a refusal: listened for again, not spoken again.
  const speak = options.notice === undefined;
  // What was heard of the last answer is in the conversation above; a screen reader hears it before the next question.
  const heard = state?.heard ? (state.heard.text ? t('page.voice.heard', { text: state.heard.text }) : t('page.voice.notHeard')) : null;
  if (speak) announce(heard ? `${heard} ${turn.text}` : turn.text);
  void voiceReady
    .then(() => conversationNow.prepare())
    .then(
      () => {
        const clips = [...app.querySelectorAll<HTMLAudioElement>('.question-media audio')];
        if (voice === conversationNow && state?.turn?.utteranceId === turn.utteranceId) conversationNow.startTurn(turn, handlers, { speak, clips });
      },
      () => {
        // The microphone went away (unplugged, permission withdrawn): text mode from here.
        conversationNow.stop();
        voice = null;
        showQuestion(turn, { notice: t('page.microphoneDenied') });
      },
    );
}

/** "Record" / "Stop recording": the recording is the answer; the server transcribes it. */
function recordButton(
  turn: TTurn,
  submit: (body: FormData, shown: string) => void,
  controls: (HTMLButtonElement | HTMLInputElement | HTMLTextAreaElement)[],
  status: HTMLElement,
): HTMLButtonElement | null {
  if (!AnswerRecorder.supported()) return null;
  const toggle = async (): Promise<void> => {
    if (!recorder.recording) {
      speaker.stop();
      // Until the microphone is granted: a second click must not open a second one.
      record.disabled = true;
      try {
        await recorder.start();
      } catch {
        status.textContent = t('page.microphoneDenied');
        return;
      } finally {
        record.disabled = false;
      }
      record.textContent = t('page.stopRecording');
      record.setAttribute('aria-pressed', 'true');
      status.textContent = t('page.recording');
      return;
    }
    record.textContent = t('page.record');
    record.setAttribute('aria-pressed', 'false');
    const { audio } = await recorder.stop();
    const form = new FormData();
    form.append('audio', audio, fileNameFor(audio.type));
    form.append('utteranceId', turn.utteranceId);
    submit(form, `🎤 ${t('page.voiceAnswer')}`);
  };
  // A click has no one to wait for it; a refused microphone is reported on the status line above.
  const record: HTMLButtonElement = button(t('page.record'), () => void toggle(), 'secondary');
  record.setAttribute('aria-pressed', 'false');
  controls.push(record);
  return record;
}

function pauseInterview(): void {
  const sessionId = state!.session.id;
  recorder.cancel();
  voice?.stop();
  speaker.stop();
  void attempt(api!.post(`/v1/sessions/${sessionId}/pause`, {}), () => {
    stopHeartbeat();
    emit('pause');
    showPaused();
  });
}

function showPaused(): void {
  const sessionId = state!.session.id;
  const resume = button(t('page.resume'), () => {
    resume.disabled = true;
    void attempt(api!.post(`/v1/sessions/${sessionId}/resume`, {}), () => {
      emit('resume');
      return startInterview();
    });
  });
  show(h('h1', {}, t('page.paused.heading')), h('p', {}, t('page.paused.text')), resume);
}

let closingWords: string | undefined;
let feedbackSent = false;

function showCompleted(closing: string | undefined): void {
  stopHeartbeat();
  voice?.stop();
  speaker.stop();
  // A preview records nothing, so the interviewer's "your answers have been recorded" would be untrue there.
  if (config.preview && closing) closing = t('page.completed.preview');
  closingWords = closing;
  emit('completed', { sessionId: state!.session.id });
  if (closing) {
    announce(closing);
    void speaker.speak(closing);
  }
  drawCompleted();
}

/** The completed screen: the closing words, then the feedback form or the thanks for it. */
function drawCompleted(sending = false): void {
  const feedback = feedbackSent ? h('p', { role: 'status' }, t('page.feedback.thanks')) : feedbackForm(sending);
  show(h('h1', {}, t('page.completed.heading')), h('p', {}, closingWords ?? t(config.preview ? 'page.completed.preview' : 'page.completed.text')), feedback);
}

function feedbackForm(sending: boolean): HTMLElement {
  const form = h('form', { class: 'feedback', 'aria-labelledby': 'feedback-heading' });
  const rating = h('fieldset', { class: 'rating' }, h('legend', {}, t('page.feedback.overall')));
  for (let value = 1; value <= 5; value++) {
    rating.append(
      h(
        'label',
        { class: 'rating-option' },
        h('input', { type: 'radio', name: 'overall', value: String(value), 'aria-label': t('page.feedback.ratingLabel', { value, max: 5 }) }),
        String(value),
      ),
    );
  }
  evenScale(rating, 5);
  const comments = h('textarea', { id: 'feedback-comments', rows: '3', maxlength: '5000' });
  const issues = h('textarea', { id: 'feedback-issues', rows: '2', maxlength: '5000' });
  const submit = h('button', { type: 'submit', class: 'primary', disabled: sending }, t('page.feedback.submit'));
  form.append(
    h('h2', { id: 'feedback-heading' }, t('page.feedback.heading')),
    rating,
    h('label', { for: 'feedback-comments' }, t('page.feedback.comments')),
    comments,
    h('label', { for: 'feedback-issues' }, t('page.feedback.issues')),
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
        if (response.status === 409) showError(t('page.ended'));
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
if (config.closed || !api) showError(config.closed?.message ?? t('page.unexpected'));
else showWelcome();
