import type { TResolvedTurnTaking, TVoiceTiming } from '../../../shared/schemas/turn-taking.js';
import { CUT_OFF_WINDOW_MS, type EndOfTurnDetector, type FrameAnalysis } from '../../../shared/voice/types.js';
import type { Speaker } from '../speech.js';
import { createBargeInDetector, createEndOfTurnDetector } from '../../../shared/voice/end-of-turn.js';
import { loadVoiceAnalyser } from './vad-runtime.js';
import { Microphone } from './microphone.js';
import { encodeWav } from './wav.js';

/**
 * The spoken conversation, one turn at a time: the AI's audio plays (speech over it stops it, when
 * the campaign allows barge-in), then the page listens and the end-of-turn rule decides when the
 * answer is over; the answer goes out as a WAV of the very frames the rule heard (from the start
 * of listening, or from just before the speech that barged in), with its timing report.
 *
 * Why WAV from the frames rather than MediaRecorder: a barge-in is decided ~100 ms into the
 * speech, and a recorder started then would cut the first syllable ("four" heard as "or"); the
 * frames before it are still in memory. It is also exactly the audio the rule judged, in the
 * format the offline recogniser reads (16 kHz mono), the same in every browser. The cost is size
 * (32 kB/s, a two-minute answer 3.8 MB).
 */

/** What the participant sees: the AI speaking, the page listening, speech heard, the answer on its way, and the participant's own holds. */
export type VoiceState = 'speaking' | 'listening' | 'hearing' | 'thinking' | 'moment' | 'muted' | 'typing';

/** About 0.5 s of audio kept from before a barge-in is decided: the start of the words that barged in. */
const PREROLL_FRAMES = 16;

interface Heard {
  frame: Float32Array;
  analysis: FrameAnalysis;
  atMs: number;
}

export interface VoiceTurnHandlers {
  state(state: VoiceState): void;
  answer(audio: Blob, timing: TVoiceTiming): void;
}

type Phase = 'idle' | 'ai' | 'listen' | 'after';

export class VoiceConversation {
  /** Silero VAD's speech probability, loudness and pitch of a frame (frames in order: the model carries state). */
  private analyser: ((frame: Float32Array) => Promise<FrameAnalysis>) | null = null;
  private readonly detector: EndOfTurnDetector;
  private readonly cutOffDetector: EndOfTurnDetector;
  private readonly bargeInDetector = createBargeInDetector();
  private phase: Phase = 'idle';
  /** Increases with every turn: analyses of a turn that has moved on are dropped. */
  private turnSeq = 0;
  private handlers: VoiceTurnHandlers | null = null;
  private preroll: Heard[] = [];
  private answerFrames: Float32Array[] = [];
  private lastSpeechEndAt: number | undefined;
  private aiAudioStartedAt: number | null = null;
  private bargedIn = false;
  private previousCutOff = false;
  /** After an answer was ended by the rule: speech within CUT_OFF_WINDOW_MS means it was ended too soon. */
  private cutOffWatchSince: number | null = null;
  private state: VoiceState = 'listening';
  muted = false;
  held = false;
  typing = false;

  constructor(
    private readonly microphone: Microphone,
    private readonly speaker: Speaker,
    private readonly settings: TResolvedTurnTaking,
  ) {
    this.detector = createEndOfTurnDetector(settings);
    this.cutOffDetector = createEndOfTurnDetector(settings);
    microphone.onFrame = (frame, atMs) => this.onFrame(frame, atMs);
  }

  /** Opens the microphone and loads the speech detector (both needed before the first turn). */
  async prepare(): Promise<void> {
    const [analyser] = await Promise.all([this.analyser ?? loadVoiceAnalyser(), this.microphone.start()]);
    this.analyser = analyser;
  }

  /** Starts a turn: speaks it (unless `speak` is false: an answer refused, listened for again), then listens. */
  startTurn(
    turn: { text: string; audioUrl?: string | undefined },
    handlers: VoiceTurnHandlers,
    options: { speak?: boolean; clips?: HTMLMediaElement[] } = {},
  ): void {
    const seq = ++this.turnSeq;
    this.handlers = handlers;
    this.held = false;
    this.detector.hold(false);
    this.bargedIn = false;
    this.aiAudioStartedAt = null;
    this.bargeInDetector.reset();
    // A barge-in keeps only what was said during this turn: words said while the page waited for
    // it (an afterthought to the last answer) are not the start of this answer.
    this.preroll = [];
    if (options.speak === false) {
      this.listen();
      return;
    }
    this.phase = 'ai';
    this.setState(this.typing ? 'typing' : 'speaking');
    void this.speaker
      .speak(turn.text, turn.audioUrl, (at) => {
        if (seq === this.turnSeq) this.aiAudioStartedAt = at;
      })
      .then(async () => {
        // The question's own audio clips (question media) play after its words, as part of the AI's turn.
        for (const clip of options.clips ?? []) {
          if (seq !== this.turnSeq || this.phase !== 'ai') return;
          await this.playClip(clip);
        }
        if (seq === this.turnSeq && this.phase === 'ai') this.listen();
      });
  }

  private playingClip: HTMLMediaElement | null = null;

  /** Resolves when the clip ended, failed, or was stopped (a barge-in, the participant's own pause). */
  private playClip(clip: HTMLMediaElement): Promise<void> {
    this.playingClip = clip;
    return new Promise((resolve) => {
      const done = () => {
        for (const type of ['ended', 'pause', 'error']) clip.removeEventListener(type, done);
        if (this.playingClip === clip) this.playingClip = null;
        resolve();
      };
      for (const type of ['ended', 'pause', 'error']) clip.addEventListener(type, done);
      clip.currentTime = 0;
      clip.play().catch(done);
    });
  }

  private stopClip(): void {
    this.playingClip?.pause();
  }

  private listen(): void {
    this.phase = this.typing ? 'idle' : 'listen';
    this.answerFrames = [];
    this.lastSpeechEndAt = undefined;
    this.detector.reset();
    this.detector.hold(this.held);
    this.setState(this.typing ? 'typing' : this.muted ? 'muted' : this.held ? 'moment' : 'listening');
  }

  private setState(state: VoiceState): void {
    if (state === this.state) return;
    this.state = state;
    this.handlers?.state(state);
  }

  get current(): VoiceState {
    return this.state;
  }

  private onFrame(frame: Float32Array, atMs: number): void {
    // Muted: the track gives zeros; the turn waits, nothing is heard or kept.
    if (this.muted || !this.analyser || this.phase === 'idle') return;
    const seq = this.turnSeq;
    this.analyser(frame).then(
      (analysis) => {
        if (seq === this.turnSeq) this.onHeard({ frame, analysis, atMs });
      },
      () => undefined,
    );
  }

  private onHeard(heard: Heard): void {
    this.preroll.push(heard);
    if (this.preroll.length > PREROLL_FRAMES) this.preroll.shift();

    if (this.cutOffWatchSince !== null && this.phase !== 'listen') {
      if (heard.atMs - this.cutOffWatchSince > CUT_OFF_WINDOW_MS) this.cutOffWatchSince = null;
      else if (this.cutOffDetector.push(heard.analysis, heard.atMs).some((event) => event.type === 'speech_start')) {
        this.previousCutOff = true;
        this.cutOffWatchSince = null;
      }
    }

    if (this.phase === 'ai') {
      if (this.settings.bargeIn && !this.typing && this.bargeInDetector.push(heard.analysis, heard.atMs)) this.bargeIn();
      return;
    }
    if (this.phase !== 'listen') return;
    this.answerFrames.push(heard.frame);
    this.hear(heard);
  }

  private hear(heard: Heard): void {
    for (const event of this.detector.push(heard.analysis, heard.atMs)) {
      if (event.type === 'speech_start') {
        // Speaking is how the participant continues after "I need a moment".
        if (this.held) this.setHeld(false);
        this.setState('hearing');
      } else if (event.type === 'speech_end') {
        this.lastSpeechEndAt = event.atMs;
        this.setState(this.held ? 'moment' : 'listening');
      } else if (event.type === 'end_of_turn') {
        this.endTurn({ speechEndedAt: event.speechEndedAtMs, endOfTurnAt: event.atMs, manual: false });
        return;
      }
    }
  }

  /** Speech over the AI: its audio stops, and what was said (from just before it was detected) is the start of the answer. */
  private bargeIn(): void {
    this.bargedIn = true;
    const kept = this.preroll.slice();
    this.phase = 'listen';
    this.speaker.stop();
    this.stopClip();
    this.answerFrames = [];
    this.lastSpeechEndAt = undefined;
    this.detector.reset();
    this.setState('hearing');
    for (const heard of kept) {
      if (this.phase !== 'listen') break;
      this.answerFrames.push(heard.frame);
      this.hear(heard);
    }
  }

  private endTurn(timing: { speechEndedAt: number | undefined; endOfTurnAt: number; manual: boolean }): void {
    const handlers = this.handlers;
    this.phase = 'after';
    this.cutOffDetector.reset();
    this.cutOffWatchSince = timing.manual ? null : timing.endOfTurnAt;
    const report: TVoiceTiming = {
      ...(timing.speechEndedAt !== undefined ? { speechEndedAt: Math.round(timing.speechEndedAt) } : {}),
      endOfTurnAt: Math.round(timing.endOfTurnAt),
      aiAudioStartedAt: this.aiAudioStartedAt,
      bargeIn: this.bargedIn,
      previousCutOff: this.previousCutOff,
      manual: timing.manual,
    };
    this.previousCutOff = false;
    const audio = encodeWav(this.answerFrames);
    this.answerFrames = [];
    this.setState('thinking');
    handlers?.answer(audio, report);
  }

  /** "I'm done": the participant ends the answer themselves. */
  finishAnswer(): void {
    if (this.phase !== 'listen') return;
    this.endTurn({ speechEndedAt: this.lastSpeechEndAt, endOfTurnAt: Date.now(), manual: true });
  }

  /** The timing report of an answer typed in voice mode (the participant ended it themselves). */
  typedTiming(): TVoiceTiming {
    const report: TVoiceTiming = {
      endOfTurnAt: Date.now(),
      aiAudioStartedAt: this.aiAudioStartedAt,
      bargeIn: this.bargedIn,
      previousCutOff: this.previousCutOff,
      manual: true,
    };
    this.previousCutOff = false;
    this.phase = 'after';
    this.cutOffWatchSince = null;
    this.setState('thinking');
    return report;
  }

  /** "I need a moment" (and press again to continue): silence does not end the turn meanwhile. */
  setHeld(held: boolean): void {
    this.held = held;
    if (held) this.detector.hold(true);
    else {
      // Continuing starts the wait afresh: what was said so far stays in the answer.
      this.detector.reset();
      this.detector.hold(false);
    }
    if (this.phase === 'listen' && !this.muted) this.setState(held ? 'moment' : 'listening');
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    this.microphone.muted = muted;
    if (!muted) {
      // The silence while muted was not heard: the wait for the end starts again.
      this.detector.reset();
      this.detector.hold(this.held);
    }
    if (this.phase === 'listen') this.setState(muted ? 'muted' : this.held ? 'moment' : 'listening');
  }

  /** Typing shows the question's own controls; the AI's audio plays on, nothing is listened to. Back: listening again. */
  setTyping(typing: boolean): void {
    this.typing = typing;
    if (typing) {
      if (this.phase === 'listen') this.phase = 'idle';
      this.answerFrames = [];
      this.setState('typing');
    } else if (this.phase === 'idle') {
      this.listen();
    } else if (this.phase === 'ai') {
      this.setState('speaking');
    }
  }

  /** The turn is over without an answer from here (paused, finished, failed): the AI stops, nothing more is heard. */
  stop(): void {
    this.turnSeq++;
    this.phase = 'idle';
    this.handlers = null;
    this.speaker.stop();
    this.stopClip();
    this.microphone.stop();
  }
}
