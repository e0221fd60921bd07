import type { Readable } from 'node:stream';
import { validationError } from '../errors.js';

/**
 * Text-to-speech for the AI's turns. The turn's signed `audioUrl` asks the configured synthesizer
 * (through TurnAudio, which caches) and streams its output as it is made; without one, the
 * interview page speaks with the browser's own speech synthesis.
 */
export interface SpeechSynthesizer {
  /** `openai` (any OpenAI-compatible endpoint) or `espeak-ng` (offline). */
  readonly name: string;
  /** What `synthesize` produces: `audio/ogg` (Opus) or `audio/mpeg` (MP3). */
  readonly contentType: 'audio/ogg' | 'audio/mpeg';
  /** Names a campaign (`settings.voice`) or the SDK (`voice`) may choose; anything else is refused where it is set. */
  readonly voices: readonly string[];
  /** The voice of a turn whose session names none. */
  readonly defaultVoice: string;
  /**
   * Changes whenever the same (text, voice, language) would sound different (another provider,
   * model or format), so cached audio of an earlier configuration is never served.
   */
  readonly cacheScope: string;
  /**
   * Starts speaking `text`. Resolves once audio is on its way (the provider answered, the process
   * started) with the stream of encoded bytes as they are made; the stream errors with a
   * SpeechSynthesisError when synthesis fails part-way. Rejects with SpeechSynthesisError.
   */
  synthesize(input: SynthesizeInput): Promise<Readable>;
}

export interface SynthesizeInput {
  text: string;
  /** One of `voices`. */
  voice: string;
  /** BCP 47 language of the interview, e.g. `en` or `nl-BE`. */
  language: string;
  signal?: AbortSignal;
}

/** Why synthesis failed; `retryable` as for speech recognition (timeouts, network, 429, 5xx). */
export const SYNTHESIS_ERROR_REASONS = {
  timeout: { retryable: true },
  aborted: { retryable: false },
  network: { retryable: true },
  unauthorized: { retryable: false },
  rate_limited: { retryable: true },
  rejected: { retryable: false },
  provider_error: { retryable: true },
  synthesizer_failed: { retryable: false },
} as const satisfies Record<string, { retryable: boolean }>;

export type SynthesisErrorReason = keyof typeof SYNTHESIS_ERROR_REASONS;

/** The one error type of text-to-speech; messages never contain credentials. */
export class SpeechSynthesisError extends Error {
  readonly reason: SynthesisErrorReason;
  readonly retryable: boolean;
  readonly status: number | null;

  constructor(reason: SynthesisErrorReason, message: string, options: { status?: number | null; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SpeechSynthesisError';
    this.reason = reason;
    this.retryable = SYNTHESIS_ERROR_REASONS[reason].retryable;
    this.status = options.status ?? null;
  }
}

/**
 * The voices both built-in choices know by default: OpenAI's names. The offline provider maps each
 * to an espeak-ng variant, so a campaign's voice stays valid when an operator moves between the
 * offline provider and an OpenAI-compatible one. `TTS_VOICES` replaces the list for servers
 * whose voices are named otherwise.
 */
export const DEFAULT_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'] as const;

/**
 * Whether `voice` may be set where the interview voice is chosen. With no synthesizer the voice is
 * only the browser's preference (its voices are the browser's own, e.g. "Samantha"), so any name
 * is taken; with one, only its voices.
 */
export function unknownVoiceMessage(synthesizer: Pick<SpeechSynthesizer, 'voices' | 'name'> | null, voice: string | null | undefined): string | null {
  if (!voice || !synthesizer || synthesizer.voices.includes(voice)) return null;
  return `"${voice}" is not a voice of this service's speech synthesis (${synthesizer.name}); available: ${synthesizer.voices.join(', ')}`;
}

/** 422 VALIDATION_ERROR at `path` (`settings.voice`, `voice`) for a voice the synthesizer does not have. */
export function assertKnownVoice(synthesizer: Pick<SpeechSynthesizer, 'voices' | 'name'> | null, voice: string | null | undefined, path: string): void {
  const message = unknownVoiceMessage(synthesizer, voice);
  if (message) throw validationError([{ path, message }]);
}
