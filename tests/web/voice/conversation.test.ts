import { describe, expect, it } from 'vitest';
import { DEFAULT_TURN_TAKING } from '../../../shared/schemas/turn-taking.js';
import { VOICE_FRAME_MS, VOICE_FRAME_SAMPLES, type FrameAnalysis } from '../../../shared/voice/types.js';
import type { Speaker } from '../../../web/interview/speech.js';
import type { Microphone } from '../../../web/interview/voice/microphone.js';
import { VoiceConversation, type VoiceTurnHandlers } from '../../../web/interview/voice/conversation.js';

/**
 * The page's turn-taking in Node: a microphone that the test feeds frame by frame (each frame's
 * samples carry a marker value, so the answer's WAV shows which frames it was made of), an
 * analyser that reads speech from that marker, and a speaker the test finishes by hand.
 */
const SILENCE = 0;
/** Frames of silence that end any answer: past the longest wait the rule may take (a pause mid-thought). */
const QUIET_TO_END = Math.ceil((DEFAULT_TURN_TAKING.pauseMs + 1000) / VOICE_FRAME_MS);

function fakeMicrophone() {
  return { onFrame: null as ((frame: Float32Array, atMs: number) => void) | null, muted: false, start: async () => undefined, stop: () => undefined };
}

function fakeSpeaker() {
  let finish: (() => void) | undefined;
  const speaker = {
    /** Whether the AI's audio ran to its end (a barge-in stops it instead). */
    finished: false,
    speak: () => new Promise<{ ok: true }>((resolve) => (finish = () => resolve({ ok: true }))),
    stop: () => finish?.(),
    finish: () => {
      speaker.finished = true;
      finish?.();
    },
  };
  return speaker;
}

async function setUp() {
  const microphone = fakeMicrophone();
  const speaker = fakeSpeaker();
  const conversation = new VoiceConversation(microphone as unknown as Microphone, speaker as unknown as Speaker, DEFAULT_TURN_TAKING);
  // The Silero analyser stands in for a rule on the marker: any non-zero frame is clear speech.
  (conversation as unknown as { analyser: (frame: Float32Array) => Promise<FrameAnalysis> }).analyser = async (frame) =>
    frame[0] === SILENCE ? { speechProbability: 0.01, rms: 0, pitchHz: null } : { speechProbability: 0.95, rms: 0.1, pitchHz: 180 };
  let at = 0;
  const feed = async (marker: number, frames: number) => {
    for (let i = 0; i < frames; i++) {
      at += VOICE_FRAME_MS;
      microphone.onFrame!(new Float32Array(VOICE_FRAME_SAMPLES).fill(marker), at);
      // Each analysis resolves before the next frame comes, as on the page.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { conversation, speaker, feed };
}

function answers() {
  const received: { audio: Blob; bargeIn: boolean }[] = [];
  const handlers: VoiceTurnHandlers = { state: () => undefined, answer: (audio, timing) => received.push({ audio, bargeIn: timing.bargeIn === true }) };
  return { received, handlers };
}

/** The distinct markers in an answer's WAV, in the order its frames came. */
async function markersOf(audio: Blob): Promise<number[]> {
  const pcm = new Int16Array((await audio.arrayBuffer()).slice(44));
  const markers: number[] = [];
  for (let i = 0; i < pcm.length; i += VOICE_FRAME_SAMPLES) {
    const marker = Math.round((pcm[i]! / 0x7fff) * 10) / 10;
    if (markers[markers.length - 1] !== marker) markers.push(marker);
  }
  return markers;
}

describe('voice turn-taking on the page', () => {
  it('a barge-in answer starts with the words that barged in, never with what was said before the question began', async () => {
    const { conversation, speaker, feed } = await setUp();
    const first = answers();
    conversation.startTurn({ text: 'How would you rate it?' }, first.handlers);
    speaker.finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await feed(0.5, 20);
    await feed(SILENCE, QUIET_TO_END);
    expect(first.received).toHaveLength(1);
    expect(await markersOf(first.received[0]!.audio)).toEqual([0.5, SILENCE]);

    // An afterthought while the page waits for the next question ("yes", said after the answer went out)...
    await feed(0.7, 6);
    const second = answers();
    conversation.startTurn({ text: 'Would you recommend it?' }, second.handlers);
    // ...then the participant speaks over the next question at once.
    await feed(0.3, 20);
    await feed(SILENCE, QUIET_TO_END);
    expect(second.received).toHaveLength(1);
    expect(second.received[0]!.bargeIn).toBe(true);
    expect(await markersOf(second.received[0]!.audio)).toEqual([0.3, SILENCE]);
  });

  it('a barge-in keeps the start of the speech that barged in: the frames heard before the decision', async () => {
    const { conversation, speaker, feed } = await setUp();
    const turn = answers();
    conversation.startTurn({ text: 'What did you like?' }, turn.handlers);
    await feed(SILENCE, 30);
    await feed(0.3, 20);
    await feed(SILENCE, QUIET_TO_END);
    expect(turn.received).toHaveLength(1);
    const pcm = new Int16Array((await turn.received[0]!.audio.arrayBuffer()).slice(44));
    // All 20 frames of speech, the two that decided the barge-in included, and a little silence before them.
    const speechFrames = Array.from({ length: pcm.length / VOICE_FRAME_SAMPLES }, (_, i) => pcm[i * VOICE_FRAME_SAMPLES]!).filter((v) => v !== 0).length;
    expect(speechFrames).toBe(20);
    expect(speaker.finished).toBe(false);
  });
});
