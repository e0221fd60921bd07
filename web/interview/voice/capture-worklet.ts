/**
 * The microphone cut into what the voice pipeline reads (shared/voice/types.ts): 16 kHz mono,
 * 512-sample frames (32 ms), each posted to the page as a Float32Array. Runs on the audio thread
 * (an AudioWorklet, served by the service itself: the page's CSP allows scripts from 'self' only).
 *
 * The context runs at the device's rate (44.1 or 48 kHz mostly; Firefox cannot connect a
 * microphone to a context of another rate), so the frames are resampled here: a windowed-sinc
 * low-pass under 8 kHz against aliasing, then linear interpolation at the 16 kHz instants.
 */

// The AudioWorkletGlobalScope's names (not in the DOM library).
declare const sampleRate: number;
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessorLike): void;
declare class AudioWorkletProcessorLike {
  readonly port: MessagePort;
}
declare const AudioWorkletProcessor: typeof AudioWorkletProcessorLike;

const TARGET_RATE = 16_000;
const FRAME_SAMPLES = 512;
const TAPS = 31;
/** Just under the 8 kHz Nyquist frequency of the output. */
const CUTOFF_HZ = 7_200;

function lowPass(rate: number): Float32Array {
  const taps = new Float32Array(TAPS);
  const fc = Math.min(CUTOFF_HZ, rate / 2) / rate;
  const middle = (TAPS - 1) / 2;
  let sum = 0;
  for (let i = 0; i < TAPS; i++) {
    const x = i - middle;
    const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
    const blackman = 0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (TAPS - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (TAPS - 1));
    taps[i] = sinc * blackman;
    sum += taps[i]!;
  }
  for (let i = 0; i < TAPS; i++) taps[i]! /= sum;
  return taps;
}

class VoiceFrameProcessor extends AudioWorkletProcessor {
  private readonly step = sampleRate / TARGET_RATE;
  private readonly taps = lowPass(sampleRate);
  /** The last TAPS raw samples, a ring. */
  private readonly history = new Float32Array(TAPS);
  private historyAt = 0;
  /** The filtered sample before the current block (index -1 when interpolating). */
  private previous = 0;
  /** Where the next output sample lies, in samples of the current block. */
  private position = 0;
  private frame = new Float32Array(FRAME_SAMPLES);
  private filled = 0;

  process(inputs: Float32Array[][]): boolean {
    const input = inputs[0]?.[0];
    if (!input || input.length === 0) return true;
    const filtered = new Float32Array(input.length);
    for (let n = 0; n < input.length; n++) {
      this.history[this.historyAt] = input[n]!;
      this.historyAt = (this.historyAt + 1) % TAPS;
      let sum = 0;
      for (let k = 0; k < TAPS; k++) sum += this.taps[k]! * this.history[(this.historyAt + k) % TAPS]!;
      filtered[n] = sum;
    }
    while (this.position < input.length - 1) {
      const index = Math.floor(this.position);
      const fraction = this.position - index;
      const before = index < 0 ? this.previous : filtered[index]!;
      const after = filtered[index + 1]!;
      this.frame[this.filled++] = before + (after - before) * fraction;
      if (this.filled === FRAME_SAMPLES) {
        this.port.postMessage(this.frame, [this.frame.buffer]);
        this.frame = new Float32Array(FRAME_SAMPLES);
        this.filled = 0;
      }
      this.position += this.step;
    }
    this.position -= input.length;
    this.previous = filtered[input.length - 1]!;
    return true;
  }
}

registerProcessor('voice-frames', VoiceFrameProcessor);
