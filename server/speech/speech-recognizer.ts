/**
 * Speech-to-text for participant answers given as audio. The engine asks the configured
 * recognizer once per audio answer; `null` means "nothing recognisable" (silence, noise, or a
 * language the recognizer cannot handle), and the engine then stores the audio without text.
 * In a language the recognizer hears (`hears`), nothing recognisable on a required structured
 * question is asked again once, as an answer that cannot be read is.
 */
export interface SpeechRecognizer {
  /** `openai` (any OpenAI-compatible endpoint) or `pocketsphinx` (offline, English only). */
  readonly name: string;
  /**
   * A CPU-heavy process on this machine (pocketsphinx): at most TRANSCRIPTION_CONCURRENCY run at
   * once. A provider over the network is not limited: waiting for it costs this process nothing,
   * and a queue in front of it would add its whole answer time to every answer behind.
   */
  readonly runsLocally: boolean;
  /** Whether it transcribes this BCP 47 language at all: `null` from it then means it heard nothing it could read. */
  hears(language: string): boolean;
  transcribe(input: TranscribeInput): Promise<Transcription | null>;
}

export interface TranscribeInput {
  /** Path of the recorded answer on local disk; the recognizer only reads it. */
  file: string;
  /** As recorded by the browser, e.g. `audio/webm;codecs=opus` (parameters are ignored). */
  contentType: string;
  /** BCP 47 language of the interview, e.g. `en` or `en-US`. */
  language: string;
  /** What the question expects, so a recognizer can narrow its vocabulary. */
  hints?: SpeechHints;
  /** Aborts the request or kills the recognizer process (the engine's own deadline). */
  signal?: AbortSignal;
}

/** The question the audio answers, as far as it helps recognition. */
export interface SpeechHints {
  questionType: 'open' | 'rating' | 'multiple_choice' | 'yes_no';
  /** multiple_choice only: the options as the script words them. */
  options?: string[];
  /** rating only; the script's default is 1 to 5. */
  scale?: { min: number; max: number };
  /**
   * The audio answers a confirmation of an answer to this question ("So that's a 4, is that
   * right?"): yes or no, alone or with the value meant instead ("no, a three").
   */
  confirming?: boolean;
}

export interface Transcription {
  /** What was said, as words (numbers stay spelled out as spoken: "four out of five"). */
  text: string;
  /** 0..1 when the recognizer gives a usable measure, else null. Comparable only within one recognizer. */
  confidence: number | null;
}

/**
 * Why a transcription failed. `retryable` failures (timeouts, network, 429, 5xx) may succeed
 * later; the others will fail again with the same audio and configuration.
 */
export const SPEECH_ERROR_REASONS = {
  timeout: { retryable: true },
  aborted: { retryable: false },
  network: { retryable: true },
  unauthorized: { retryable: false },
  rate_limited: { retryable: true },
  rejected: { retryable: false },
  provider_error: { retryable: true },
  bad_response: { retryable: false },
  unsupported_audio: { retryable: false },
  recognizer_failed: { retryable: false },
} as const satisfies Record<string, { retryable: boolean }>;

export type SpeechErrorReason = keyof typeof SPEECH_ERROR_REASONS;

/** The one error type of `server/speech`; messages never contain credentials. */
export class SpeechRecognitionError extends Error {
  readonly reason: SpeechErrorReason;
  readonly retryable: boolean;
  /** HTTP status of the provider's answer, when there was one. */
  readonly status: number | null;

  constructor(reason: SpeechErrorReason, message: string, options: { status?: number | null; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SpeechRecognitionError';
    this.reason = reason;
    this.retryable = SPEECH_ERROR_REASONS[reason].retryable;
    this.status = options.status ?? null;
  }
}

/** `audio/webm;codecs=opus` → `audio/webm`. */
export function baseContentType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** `en-US` → `en`; null when the tag does not start with a two-letter (ISO 639-1) code. */
export function twoLetterLanguage(language: string): string | null {
  const primary = (language.split(/[-_]/)[0] ?? '').toLowerCase();
  return /^[a-z]{2}$/.test(primary) ? primary : null;
}
