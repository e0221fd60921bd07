/** A spoken answer: the microphone recorded with MediaRecorder, handed over as one Blob. */
export class AnswerRecorder {
  private recorder: MediaRecorder | null = null;
  private chunks: Blob[] = [];
  private startedAt = 0;

  static supported(): boolean {
    return typeof MediaRecorder === 'function' && !!navigator.mediaDevices?.getUserMedia && window.isSecureContext;
  }

  get recording(): boolean {
    return this.recorder !== null;
  }

  async start(): Promise<void> {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
    const mimeType = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4'].find((type) => MediaRecorder.isTypeSupported(type));
    try {
      this.recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    } catch (error) {
      // The microphone must not stay on for a recorder that never started.
      for (const track of stream.getTracks()) track.stop();
      throw error;
    }
    this.chunks = [];
    this.recorder.addEventListener('dataavailable', (event) => {
      if (event.data.size > 0) this.chunks.push(event.data);
    });
    this.startedAt = performance.now();
    this.recorder.start(1000);
  }

  /** Stops and releases the microphone; resolves with the recording and its length in seconds. */
  stop(): Promise<{ audio: Blob; seconds: number }> {
    const recorder = this.recorder;
    if (!recorder) return Promise.reject(new Error('not recording'));
    this.recorder = null;
    return new Promise((resolve) => {
      recorder.addEventListener(
        'stop',
        () => {
          for (const track of recorder.stream.getTracks()) track.stop();
          resolve({ audio: new Blob(this.chunks, { type: recorder.mimeType || 'audio/webm' }), seconds: (performance.now() - this.startedAt) / 1000 });
        },
        { once: true },
      );
      recorder.stop();
    });
  }

  /** Drops a recording in progress (the page moved on). */
  cancel(): void {
    const recorder = this.recorder;
    this.recorder = null;
    if (!recorder) return;
    for (const track of recorder.stream.getTracks()) track.stop();
    if (recorder.state !== 'inactive') recorder.stop();
  }
}

/** The file name the server sees for a recording of this type. */
export function fileNameFor(type: string): string {
  if (type.includes('ogg')) return 'answer.ogg';
  if (type.includes('mp4')) return 'answer.m4a';
  return 'answer.webm';
}
