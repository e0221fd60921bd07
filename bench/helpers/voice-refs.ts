/** What `bench/voice.ts` and its fake providers (`voice-fakes.ts`) agree on. */

/** One provider request as the fake measured it. */
export interface FakeRecord {
  kind: 'stt' | 'llm' | 'tts';
  /** `ref-<interview>-<turn>`, or null when the request carried none. */
  ref: string | null;
  /** Request headers in → body read. */
  bodyMs: number;
  /** Request headers in → first byte of the answer written: the provider's share of the turn. */
  firstByteMs: number;
  /** Request headers in → answer ended. */
  totalMs: number;
}

/** The turn marker lives in the last REF_BYTES bytes of each uploaded WAV's samples (a few samples of noise). */
export const REF_BYTES = 32;
export const REF_PATTERN = /ref-\d+-\d+/;

/** The marker of turn `turn` of interview `interview`. */
export function refOf(interview: number, turn: number): string {
  return `ref-${interview}-${turn}`;
}
