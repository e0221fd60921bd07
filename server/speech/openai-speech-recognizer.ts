import { openAsBlob } from 'node:fs';
import { providerStatusMessage, providerStatusReason, scrubProviderText } from './provider-answers.js';
import {
  baseContentType,
  SpeechRecognitionError,
  twoLetterLanguage,
  type SpeechHints,
  type SpeechRecognizer,
  type TranscribeInput,
  type Transcription,
} from './speech-recognizer.js';

export interface OpenAiSpeechRecognizerOptions {
  /** e.g. `https://api.openai.com/v1`; `/audio/transcriptions` is appended. */
  baseUrl: string;
  apiKey: string;
  /** e.g. `whisper-1`, `gpt-4o-mini-transcribe`, or what a compatible server calls its model. */
  model: string;
  /** Whole request, upload included. */
  timeoutMs: number;
  /**
   * `verbose_json` gives per-segment log probabilities (whisper-1 and most compatible servers);
   * OpenAI's `gpt-4o-*transcribe` models accept only `json` (token logprobs on request).
   * Default: `json` for models named `gpt-…`, else `verbose_json`.
   */
  responseFormat?: 'verbose_json' | 'json';
}

/** The provider names audio formats by the upload's file name, not by its content type. */
const EXTENSIONS: Record<string, string> = {
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'audio/wav': 'wav',
  'audio/wave': 'wav',
  'audio/x-wav': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/m4a': 'm4a',
  'video/mp4': 'mp4',
  'audio/flac': 'flac',
};

/** Whisper's own rule for a segment that holds no speech (it hallucinates text for silence). */
const NO_SPEECH_PROB = 0.6;
const NO_SPEECH_LOGPROB = -1;

interface VerboseSegment {
  start?: unknown;
  end?: unknown;
  text?: unknown;
  avg_logprob?: unknown;
  no_speech_prob?: unknown;
}

/**
 * Speech-to-text through an OpenAI-compatible `POST {baseUrl}/audio/transcriptions`
 * (OpenAI, Groq, faster-whisper-server, whisper.cpp's server, LocalAI …).
 */
export class OpenAiSpeechRecognizer implements SpeechRecognizer {
  readonly name = 'openai';
  readonly runsLocally = false;

  /** The provider is told the language; which ones it knows is its own business. */
  hears(): boolean {
    return true;
  }
  private readonly endpoint: string;
  private readonly responseFormat: 'verbose_json' | 'json';

  constructor(private readonly options: OpenAiSpeechRecognizerOptions) {
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
    this.responseFormat = options.responseFormat ?? (/^gpt-/i.test(options.model) ? 'json' : 'verbose_json');
  }

  async transcribe(input: TranscribeInput): Promise<Transcription | null> {
    const contentType = baseContentType(input.contentType);
    const form = new FormData();
    let blob: Blob;
    try {
      blob = await openAsBlob(input.file, { type: contentType || 'application/octet-stream' });
    } catch (error) {
      throw new SpeechRecognitionError('unsupported_audio', 'the audio file cannot be read', { cause: error });
    }
    form.append('file', blob, `answer.${EXTENSIONS[contentType] ?? 'webm'}`);
    form.append('model', this.options.model);
    form.append('response_format', this.responseFormat);
    if (this.responseFormat === 'json') form.append('include[]', 'logprobs');
    const language = twoLetterLanguage(input.language);
    if (language) form.append('language', language);
    const prompt = promptFor(input.hints);
    if (prompt) form.append('prompt', prompt);

    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = input.signal ? AbortSignal.any([timeout, input.signal]) : timeout;
    let response: Response;
    let body: string;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' },
        body: form,
        signal,
      });
      body = await response.text();
    } catch (error) {
      throw this.transportError(error, timeout, input.signal);
    }
    if (!response.ok) throw this.statusError(response.status, body);
    return this.parse(body);
  }

  private transportError(error: unknown, timeout: AbortSignal, callerSignal: AbortSignal | undefined): SpeechRecognitionError {
    if (callerSignal?.aborted) return new SpeechRecognitionError('aborted', 'speech-to-text request aborted');
    if (timeout.aborted) {
      return new SpeechRecognitionError('timeout', `speech-to-text provider did not answer within ${this.options.timeoutMs} ms`);
    }
    // undici puts the reason (ECONNREFUSED, certificate …) on `cause`; neither carries headers.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const detail = cause instanceof Error ? cause.message : String(cause);
    return new SpeechRecognitionError('network', `speech-to-text provider unreachable: ${this.scrub(detail)}`, { cause });
  }

  private statusError(status: number, body: string): SpeechRecognitionError {
    return new SpeechRecognitionError(providerStatusReason(status), providerStatusMessage('speech-to-text', status, body, this.options.apiKey), { status });
  }

  private parse(body: string): Transcription | null {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new SpeechRecognitionError('bad_response', 'speech-to-text provider answered with something other than JSON');
    }
    if (!json || typeof json !== 'object' || typeof (json as { text?: unknown }).text !== 'string') {
      throw new SpeechRecognitionError('bad_response', 'speech-to-text provider answered without a text');
    }
    const { text, segments, logprobs } = json as { text: string; segments?: unknown; logprobs?: unknown };

    if (Array.isArray(segments) && segments.length > 0) {
      const spoken = (segments as VerboseSegment[]).filter((segment) => !isSilence(segment));
      const spokenText = spoken
        .map((segment) => (typeof segment.text === 'string' ? segment.text : ''))
        .join('')
        .trim();
      if (!spokenText) return null;
      return { text: spokenText.replace(/\s+/g, ' '), confidence: segmentConfidence(spoken) };
    }
    const trimmed = text.trim().replace(/\s+/g, ' ');
    if (!trimmed) return null;
    return { text: trimmed, confidence: tokenConfidence(logprobs) };
  }

  private scrub(text: string): string {
    return scrubProviderText(text, this.options.apiKey);
  }
}

function isSilence(segment: VerboseSegment): boolean {
  return (
    typeof segment.no_speech_prob === 'number' &&
    typeof segment.avg_logprob === 'number' &&
    segment.no_speech_prob > NO_SPEECH_PROB &&
    segment.avg_logprob < NO_SPEECH_LOGPROB
  );
}

/** exp of the duration-weighted mean `avg_logprob`: the average per-token probability. */
function segmentConfidence(segments: VerboseSegment[]): number | null {
  let weighted = 0;
  let total = 0;
  for (const segment of segments) {
    if (typeof segment.avg_logprob !== 'number' || !Number.isFinite(segment.avg_logprob)) continue;
    const duration = typeof segment.start === 'number' && typeof segment.end === 'number' && segment.end > segment.start ? segment.end - segment.start : 1;
    weighted += segment.avg_logprob * duration;
    total += duration;
  }
  return total > 0 ? clamp01(Math.exp(weighted / total)) : null;
}

/** `gpt-4o-*transcribe` with `include[]=logprobs`: exp of the mean token log probability. */
function tokenConfidence(logprobs: unknown): number | null {
  if (!Array.isArray(logprobs)) return null;
  const values = logprobs
    .map((entry) => (entry && typeof entry === 'object' ? (entry as { logprob?: unknown }).logprob : undefined))
    .filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
  if (values.length === 0) return null;
  return clamp01(Math.exp(values.reduce((sum, value) => sum + value, 0) / values.length));
}

function clamp01(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
}

/**
 * Whisper takes the prompt as preceding context: listing the expected words makes it spell
 * them as the script does ("Zendesk", not "send desk") and prefer them when unsure.
 */
function promptFor(hints: SpeechHints | undefined): string | null {
  if (!hints) return null;
  if (hints.questionType === 'multiple_choice' && hints.options?.length) return `${hints.options.join(', ')}.`;
  if (hints.questionType === 'rating') {
    const { min, max } = hints.scale ?? { min: 1, max: 5 };
    return `A rating from ${min} to ${max}.`;
  }
  if (hints.questionType === 'yes_no') return 'Yes or no.';
  return null;
}
