/**
 * The AI's words spoken aloud: the turn's own audio when the server has it (streamed from its
 * signed link), else the browser's speech synthesis in the interview language. Speaking never
 * blocks input, and a browser without voices (or with speech switched off) just shows the text.
 * Voice mode waits for the end (`speak` resolves) before it listens; text mode ignores it.
 *
 * One audio element for the whole interview, in the document (hidden): a mobile browser lets a
 * page play only on an element that first played inside a tap (`unlock`), and the element's media
 * events are where the page (and its tests) see that the AI's audio played.
 */
export interface Spoken {
  /** Epoch ms when the audio started playing (its `playing` event, or the synthesis's `start`); null: it never played. */
  startedAt: number | null;
  outcome: 'ended' | 'stopped' | 'failed';
}

/** How long a turn's audio may take to start before the page stops waiting and listens. */
const START_TIMEOUT_MS = 10_000;

export class Speaker {
  private readonly audio: HTMLAudioElement;
  private finish: ((outcome: Spoken['outcome']) => void) | null = null;
  enabled = true;

  constructor(
    private readonly language: string,
    private readonly preferredVoice: string | null,
  ) {
    this.audio = document.createElement('audio');
    this.audio.id = 'ai-audio';
    this.audio.hidden = true;
    this.audio.preload = 'auto';
    document.body.append(this.audio);
  }

  private pickVoice(): SpeechSynthesisVoice | null {
    const voices = window.speechSynthesis.getVoices();
    const wanted = this.preferredVoice?.toLowerCase();
    const byName = wanted ? voices.find((voice) => voice.name.toLowerCase() === wanted || voice.voiceURI.toLowerCase() === wanted) : undefined;
    if (byName) return byName;
    const base = this.language.toLowerCase().split('-')[0]!;
    return (
      voices.find((voice) => voice.lang.toLowerCase() === this.language.toLowerCase()) ??
      voices.find((voice) => voice.lang.toLowerCase().split(/[-_]/)[0] === base) ??
      null
    );
  }

  /** Called inside the participant's tap: the element and the synthesis may play later without one (iOS). */
  unlock(silence: string): void {
    try {
      this.audio.src = silence;
      void this.audio.play().catch(() => undefined);
      if ('speechSynthesis' in window) window.speechSynthesis.speak(new SpeechSynthesisUtterance(' '));
    } catch {
      // Nothing to unlock.
    }
  }

  /** Speaks `text` (its `audioUrl` when given); `onStart` when it is heard. Resolves when it ended, was stopped or failed. */
  speak(text: string, audioUrl?: string, onStart?: (at: number) => void): Promise<Spoken> {
    this.stop();
    if (!this.enabled) return Promise.resolve({ startedAt: null, outcome: 'failed' });
    return new Promise((resolve) => {
      let startedAt: number | null = null;
      let cleanup = () => undefined as void;
      const started = () => {
        if (startedAt !== null) return;
        startedAt = Date.now();
        onStart?.(startedAt);
      };
      const done = (outcome: Spoken['outcome']) => {
        if (this.finish !== done) return;
        this.finish = null;
        cleanup();
        resolve({ startedAt, outcome });
      };
      this.finish = done;
      try {
        if (audioUrl) {
          const audio = this.audio;
          const ended = () => done('ended');
          const failed = () => done('failed');
          const timer = window.setTimeout(() => startedAt === null && done('failed'), START_TIMEOUT_MS);
          audio.addEventListener('playing', started);
          audio.addEventListener('ended', ended);
          audio.addEventListener('error', failed);
          cleanup = () => {
            window.clearTimeout(timer);
            audio.removeEventListener('playing', started);
            audio.removeEventListener('ended', ended);
            audio.removeEventListener('error', failed);
          };
          audio.src = audioUrl;
          audio.play().catch(failed);
          return;
        }
        if (!('speechSynthesis' in window)) return done('failed');
        const utterance = new SpeechSynthesisUtterance(text);
        utterance.lang = this.language;
        const voice = this.pickVoice();
        if (voice) utterance.voice = voice;
        // Some browsers never say `end` (or `start`): a generous estimate of the sentence's length ends the wait.
        const timer = window.setTimeout(() => done(startedAt === null ? 'failed' : 'ended'), START_TIMEOUT_MS + text.length * 90);
        utterance.addEventListener('start', started);
        utterance.addEventListener('end', () => done('ended'));
        utterance.addEventListener('error', () => done('failed'));
        cleanup = () => window.clearTimeout(timer);
        window.speechSynthesis.speak(utterance);
      } catch {
        // No voice is not an error: the question is on screen.
        done('failed');
      }
    });
  }

  get speaking(): boolean {
    return this.finish !== null;
  }

  stop(): void {
    const finish = this.finish;
    this.audio.pause();
    try {
      if ('speechSynthesis' in window) window.speechSynthesis.cancel();
    } catch {
      // Nothing was speaking.
    }
    finish?.('stopped');
  }
}
