/**
 * The open microphone in voice mode: getUserMedia with the browser's echo cancellation and noise
 * suppression (the AI's voice from the speakers must not be heard as the participant), fed to the
 * capture worklet, which hands back 16 kHz frames of 512 samples with the time each arrived.
 */
export type FrameListener = (frame: Float32Array, atMs: number) => void;

export class Microphone {
  private stream: MediaStream | null = null;
  private source: MediaStreamAudioSourceNode | null = null;
  private node: AudioWorkletNode | null = null;
  private sink: GainNode | null = null;
  private workletLoaded = false;
  onFrame: FrameListener | null = null;

  /** `context` is made (and resumed) inside the participant's click: browsers start audio only then. */
  constructor(
    readonly context: AudioContext,
    private readonly workletUrl: string,
  ) {}

  /** What hands-free voice needs; without it the page offers typing only. */
  static supported(): boolean {
    return (
      window.isSecureContext &&
      !!navigator.mediaDevices?.getUserMedia &&
      typeof AudioContext === 'function' &&
      typeof AudioWorkletNode === 'function' &&
      typeof WebAssembly === 'object'
    );
  }

  /** Whether a microphone is plugged in (asked before permission: the kinds are known, the names not). */
  static async present(): Promise<boolean> {
    if (!Microphone.supported()) return false;
    try {
      const devices = await navigator.mediaDevices.enumerateDevices();
      return devices.some((device) => device.kind === 'audioinput');
    } catch {
      return false;
    }
  }

  get open(): boolean {
    return this.stream !== null;
  }

  async start(): Promise<void> {
    if (this.stream) return;
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
    });
    try {
      if (!this.workletLoaded) {
        await this.context.audioWorklet.addModule(this.workletUrl);
        this.workletLoaded = true;
      }
      if (this.context.state === 'suspended') await this.context.resume();
      this.source = this.context.createMediaStreamSource(stream);
      this.node = new AudioWorkletNode(this.context, 'voice-frames', { numberOfInputs: 1, numberOfOutputs: 1, channelCount: 1, channelCountMode: 'explicit' });
      this.node.port.onmessage = (event: MessageEvent<Float32Array>) => this.onFrame?.(event.data, Date.now());
      // A node nobody listens to may not be run: connected to the output, silenced.
      this.sink = this.context.createGain();
      this.sink.gain.value = 0;
      this.source.connect(this.node).connect(this.sink).connect(this.context.destination);
      this.stream = stream;
    } catch (error) {
      for (const track of stream.getTracks()) track.stop();
      throw error;
    }
  }

  /** Muted: the track gives silence (the browser's indicator stays, the permission is kept). */
  set muted(muted: boolean) {
    for (const track of this.stream?.getAudioTracks() ?? []) track.enabled = !muted;
  }

  /** Releases the microphone (paused, finished, failed): the browser's recording indicator goes off. */
  stop(): void {
    if (this.node) this.node.port.onmessage = null;
    this.source?.disconnect();
    this.node?.disconnect();
    this.sink?.disconnect();
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    this.source = null;
    this.node = null;
    this.sink = null;
  }
}
