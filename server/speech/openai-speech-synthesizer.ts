import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { DEFAULT_VOICES, SpeechSynthesisError, type SpeechSynthesizer, type SynthesizeInput } from './speech-synthesizer.js';
import { providerStatusMessage, providerStatusReason, scrubProviderText } from './provider-answers.js';

export interface OpenAiSpeechSynthesizerOptions {
  /** e.g. `https://api.openai.com/v1`; `/audio/speech` is appended. */
  baseUrl: string;
  apiKey: string;
  /** e.g. `gpt-4o-mini-tts`, `tts-1`, or what a compatible server (Kokoro, Piper, openedai-speech …) calls its model. */
  model: string;
  /** `opus` is Ogg Opus (`audio/ogg`), `mp3` is `audio/mpeg`. */
  format: 'opus' | 'mp3';
  /** The voices the server has; the first is the default. Default: OpenAI's. */
  voices?: readonly string[];
  /** Until the answer's headers, and then between two pieces of audio: a stalled stream is cut. */
  timeoutMs: number;
}

/**
 * Text-to-speech through an OpenAI-compatible `POST {baseUrl}/audio/speech` (OpenAI, and the many
 * self-hosted servers that speak its protocol). The operator configures the URL, so it is
 * requested as given (http on a private network included), unlike customer-supplied URLs.
 */
export class OpenAiSpeechSynthesizer implements SpeechSynthesizer {
  readonly name = 'openai';
  readonly contentType: 'audio/ogg' | 'audio/mpeg';
  readonly voices: readonly string[];
  readonly defaultVoice: string;
  readonly cacheScope: string;
  private readonly endpoint: string;

  constructor(private readonly options: OpenAiSpeechSynthesizerOptions) {
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/audio/speech`;
    this.contentType = options.format === 'mp3' ? 'audio/mpeg' : 'audio/ogg';
    this.voices = options.voices?.length ? [...options.voices] : [...DEFAULT_VOICES];
    this.defaultVoice = this.voices[0]!;
    this.cacheScope = `openai ${this.endpoint} ${options.model} ${options.format}`;
  }

  async synthesize(input: SynthesizeInput): Promise<Readable> {
    const stall = new AbortController();
    let stalled = false;
    let timer = setTimeout(() => {
      stalled = true;
      stall.abort();
    }, this.options.timeoutMs);
    const signal = input.signal ? AbortSignal.any([stall.signal, input.signal]) : stall.signal;
    const fail = (error: unknown) => {
      clearTimeout(timer);
      if (input.signal?.aborted) return new SpeechSynthesisError('aborted', 'text-to-speech request aborted');
      if (stalled) return new SpeechSynthesisError('timeout', `text-to-speech provider sent nothing for ${this.options.timeoutMs} ms`);
      if (error instanceof SpeechSynthesisError) return error;
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const detail = cause instanceof Error ? cause.message : String(cause);
      return new SpeechSynthesisError('network', `text-to-speech provider unreachable: ${this.scrub(detail)}`, { cause });
    };

    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: this.options.model, input: input.text, voice: input.voice, response_format: this.options.format }),
        signal,
      });
      if (!response.ok) throw this.statusError(response.status, await response.text());
      if (!response.body) throw new SpeechSynthesisError('provider_error', 'text-to-speech provider answered without audio');
    } catch (error) {
      throw fail(error);
    }

    // Each piece of audio restarts the stall timer; the whole answer may take as long as speech does.
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalled = true;
        stall.abort();
      }, this.options.timeoutMs);
    };
    const watch = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        restart();
        callback(null, chunk);
      },
      flush(callback) {
        clearTimeout(timer);
        callback();
      },
    });
    const source = Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>);
    source.on('error', (error) => watch.destroy(fail(error)));
    watch.on('close', () => {
      clearTimeout(timer);
      source.destroy();
    });
    return source.pipe(watch);
  }

  private statusError(status: number, body: string): SpeechSynthesisError {
    return new SpeechSynthesisError(providerStatusReason(status), providerStatusMessage('text-to-speech', status, body, this.options.apiKey), { status });
  }

  private scrub(text: string): string {
    return scrubProviderText(text, this.options.apiKey);
  }
}
