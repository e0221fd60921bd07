/**
 * The AI's words spoken aloud: the turn's own audio when the server has it, else the browser's
 * speech synthesis in the interview language. Fire and forget: speaking never blocks input, and
 * a browser without voices (or with speech switched off) just shows the text.
 */
export class Speaker {
  private audio: HTMLAudioElement | null = null;
  enabled = true;

  constructor(
    private readonly language: string,
    private readonly preferredVoice: string | null,
  ) {}

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

  speak(text: string, audioUrl?: string): void {
    this.stop();
    if (!this.enabled) return;
    try {
      if (audioUrl) {
        this.audio = new Audio(audioUrl);
        void this.audio.play().catch(() => undefined);
        return;
      }
      if (!('speechSynthesis' in window)) return;
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = this.language;
      const voice = this.pickVoice();
      if (voice) utterance.voice = voice;
      window.speechSynthesis.speak(utterance);
    } catch {
      // No voice is not an error: the question is on screen.
    }
  }

  stop(): void {
    this.audio?.pause();
    this.audio = null;
    try {
      if ('speechSynthesis' in window) window.speechSynthesis.cancel();
    } catch {
      // Nothing was speaking.
    }
  }
}
