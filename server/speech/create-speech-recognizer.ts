import type { Logger } from '../logger.js';
import { OpenAiSpeechRecognizer, type OpenAiSpeechRecognizerOptions } from './openai-speech-recognizer.js';
import { detectPocketsphinx, PocketsphinxSpeechRecognizer } from './pocketsphinx-speech-recognizer.js';
import type { SpeechRecognizer } from './speech-recognizer.js';

export interface CreateSpeechRecognizerOptions {
  /** From `STT_BASE_URL`, `STT_API_KEY`, `STT_MODEL`; absent when `STT_BASE_URL` is unset. */
  stt?: OpenAiSpeechRecognizerOptions;
  /** Passed to detectPocketsphinx (tests point it at a directory without a model). */
  pocketsphinxModelDirs?: string[];
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export interface SpeechRecognizerChoice {
  /** null: audio answers are stored without text unless the browser sent its own transcript. */
  recognizer: SpeechRecognizer | null;
  /** One line for the start-up log and the health/about output. */
  description: string;
}

/**
 * The configured OpenAI-compatible provider when there is one, else offline pocketsphinx when
 * it is installed, else none. Called once at start: detection touches the file system.
 */
export async function createSpeechRecognizer(options: CreateSpeechRecognizerOptions = {}): Promise<SpeechRecognizerChoice> {
  const { stt, logger } = options;
  if (stt?.baseUrl) {
    const choice = { recognizer: new OpenAiSpeechRecognizer(stt), description: `speech-to-text: ${hostOf(stt.baseUrl)} (${stt.model})` };
    logger?.info(choice.description);
    return choice;
  }
  const detection = await detectPocketsphinx(options.pocketsphinxModelDirs ? { modelDirs: options.pocketsphinxModelDirs } : {});
  if (detection.available) {
    const { binary, modelDir, ffmpeg } = detection;
    const choice = {
      recognizer: new PocketsphinxSpeechRecognizer({ binary, modelDir, ffmpeg }),
      description: 'speech-to-text: offline pocketsphinx (English only, modest accuracy; set STT_BASE_URL for a better provider)',
    };
    logger?.info(choice.description);
    return choice;
  }
  const description = `no speech-to-text: set STT_BASE_URL or install pocketsphinx (${detection.reason})`;
  logger?.warn(description);
  return { recognizer: null, description };
}

/** The host only: a base URL may carry credentials in its user-info or query. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'OpenAI-compatible provider';
  }
}
