import { ConfigError } from '../config.js';
import { findExecutable } from '../lib/child-process.js';
import type { Logger } from '../logger.js';
import { EspeakSpeechSynthesizer } from './espeak-speech-synthesizer.js';
import { OpenAiSpeechSynthesizer, type OpenAiSpeechSynthesizerOptions } from './openai-speech-synthesizer.js';
import type { SpeechSynthesizer } from './speech-synthesizer.js';

export interface CreateSpeechSynthesizerOptions {
  /** `auto`: the OpenAI-compatible provider when `tts` is set, else espeak-ng when installed, else the browser's. */
  provider: 'auto' | 'openai' | 'espeak-ng' | 'browser';
  /** From `TTS_BASE_URL`, `TTS_API_KEY`, `TTS_MODEL`, `TTS_FORMAT`, `TTS_VOICES`; absent when `TTS_BASE_URL` is unset. */
  tts?: OpenAiSpeechSynthesizerOptions | undefined;
  /** ffmpeg (FFMPEG_PATH or on PATH); null when it is not installed. */
  ffmpeg: string | null;
  /** Per turn, for the offline provider. */
  timeoutMs: number;
  /** Where espeak-ng is looked for; default: on PATH. Tests point it elsewhere. */
  espeakPath?: string | null;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export interface SpeechSynthesizerChoice {
  /** null: turns carry no audioUrl and the interview page speaks with the browser's speech synthesis. */
  synthesizer: SpeechSynthesizer | null;
  /** One line for the start-up log. */
  description: string;
}

/**
 * The configured OpenAI-compatible provider when there is one, else espeak-ng (with ffmpeg) when
 * both are installed, else none. Called once at start: detection touches the file system.
 */
export async function createSpeechSynthesizer(options: CreateSpeechSynthesizerOptions): Promise<SpeechSynthesizerChoice> {
  const { tts, provider } = options;
  if (provider === 'browser') return { synthesizer: null, description: "text-to-speech: the browser's own (TTS_PROVIDER=browser)" };
  if (tts && provider !== 'espeak-ng') {
    const synthesizer = new OpenAiSpeechSynthesizer(tts);
    return {
      synthesizer,
      description: `text-to-speech: ${hostOf(tts.baseUrl)} (${tts.model}, ${tts.format}, voices ${synthesizer.voices.join(', ')})`,
    };
  }
  if (provider === 'openai') throw new ConfigError('Invalid configuration:\n  TTS_PROVIDER=openai needs TTS_BASE_URL');
  const espeak = options.espeakPath === undefined ? await findExecutable('espeak-ng') : options.espeakPath;
  const missing = [espeak ? null : 'espeak-ng', options.ffmpeg ? null : 'ffmpeg'].filter(Boolean).join(' and ');
  if (espeak && options.ffmpeg) {
    return {
      synthesizer: new EspeakSpeechSynthesizer({ espeak, ffmpeg: options.ffmpeg, timeoutMs: options.timeoutMs }),
      description: 'text-to-speech: offline espeak-ng, Opus (robotic but in every interview language; set TTS_BASE_URL for natural voices)',
    };
  }
  if (provider === 'espeak-ng')
    // A configuration that cannot work stops the process rather than every turn going unspoken.
    throw new ConfigError(`Invalid configuration:\n  TTS_PROVIDER=espeak-ng but ${missing} is not installed (apt-get install espeak-ng ffmpeg)`);
  return {
    synthesizer: null,
    description: `text-to-speech: the browser's own; set TTS_BASE_URL or install ${missing} for spoken turns from the server`,
  };
}

/** The host only: a base URL may carry credentials in its user-info or query. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'OpenAI-compatible provider';
  }
}
