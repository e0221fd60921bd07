import { VOICE_SAMPLE_RATE } from '../../../shared/voice/types.js';
import { monoPcm16WavHeader } from '../../../shared/voice/wav.js';

/** 16 kHz mono 16-bit PCM WAV of the frames, in order: the answer exactly as the end-of-turn rule heard it. */
export function encodeWav(frames: readonly Float32Array[], sampleRate = VOICE_SAMPLE_RATE): Blob {
  const samples = frames.reduce((sum, frame) => sum + frame.length, 0);
  const buffer = new ArrayBuffer(44 + samples * 2);
  new Uint8Array(buffer).set(monoPcm16WavHeader(samples, sampleRate));
  const view = new DataView(buffer);
  let offset = 44;
  for (const frame of frames) {
    for (let i = 0; i < frame.length; i++) {
      const sample = Math.max(-1, Math.min(1, frame[i]!));
      view.setInt16(offset, sample < 0 ? sample * 0x8000 : sample * 0x7fff, true);
      offset += 2;
    }
  }
  return new Blob([buffer], { type: 'audio/wav' });
}
