import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { interviewLanguageOf, type TInterviewLanguage } from '../../shared/languages.js';
import { lastLine } from '../lib/child-process.js';
import { DEFAULT_VOICES, SpeechSynthesisError, type SpeechSynthesizer, type SynthesizeInput } from './speech-synthesizer.js';

export interface EspeakSpeechSynthesizerOptions {
  /** The espeak-ng executable. */
  espeak: string;
  ffmpeg: string;
  /** Whole synthesis of one turn; both processes are killed after it. */
  timeoutMs: number;
}

/**
 * The built-in voices, named as OpenAI names its own (so a campaign's voice survives a change of
 * provider), each an espeak-ng variant applied to the interview language's espeak voice.
 */
export const ESPEAK_VARIANTS: Record<(typeof DEFAULT_VOICES)[number], string> = {
  alloy: 'f2',
  ash: 'm2',
  ballad: 'm4',
  coral: 'f1',
  echo: 'm3',
  fable: 'm5',
  nova: 'f3',
  onyx: 'm7',
  sage: 'f4',
  shimmer: 'f5',
  verse: 'm6',
};

/** The espeak-ng voice of each interview language, and of the regions it has its own voice for. */
const ESPEAK_LANGUAGES: Record<TInterviewLanguage, { default: string; regions: Record<string, string> }> = {
  en: { default: 'en-us', regions: { gb: 'en-gb', uk: 'en-gb', ie: 'en-gb', au: 'en-gb', nz: 'en-gb', us: 'en-us' } },
  nl: { default: 'nl', regions: {} },
  de: { default: 'de', regions: {} },
  fr: { default: 'fr-fr', regions: { be: 'fr-be', ch: 'fr-ch' } },
  // Every region but Spain speaks Latin American Spanish (es-419, es-MX, es-AR …).
  es: { default: 'es', regions: { es: 'es' } },
};

/** `nl-BE` → `nl`, `en-GB` → `en-gb`, `es-MX` → `es-419`; null for a language interviews are not held in. */
export function espeakVoiceFor(language: string): string | null {
  const held = interviewLanguageOf(language);
  if (!held) return null;
  const region = (language.split(/[-_]/)[1] ?? '').toLowerCase();
  const entry = ESPEAK_LANGUAGES[held];
  if (!region) return entry.default;
  if (held === 'es') return entry.regions[region] ?? 'es-419';
  return entry.regions[region] ?? entry.default;
}

const OPUS_ARGS = [
  '-hide_banner',
  '-loglevel',
  'error',
  '-nostdin',
  '-f',
  'wav',
  '-i',
  'pipe:0',
  '-c:a',
  'libopus',
  '-b:a',
  '32k',
  '-application',
  'voip',
  // Small Ogg pages, written as soon as they are full: the first words reach the player early.
  '-page_duration',
  '100000',
  '-flush_packets',
  '1',
  '-f',
  'ogg',
  'pipe:1',
];

/**
 * Offline text-to-speech: espeak-ng (GPL-3.0, run as its own process, never linked) writes WAV,
 * ffmpeg encodes it to Ogg Opus, and the Opus bytes are handed on as ffmpeg writes them.
 * Robotic but intelligible, in every interview language, with no network and no model files.
 */
export class EspeakSpeechSynthesizer implements SpeechSynthesizer {
  readonly name = 'espeak-ng';
  readonly contentType = 'audio/ogg' as const;
  readonly voices: readonly string[] = [...DEFAULT_VOICES];
  readonly defaultVoice = 'alloy';
  readonly cacheScope = 'espeak-ng opus32k';

  constructor(private readonly options: EspeakSpeechSynthesizerOptions) {}

  async synthesize(input: SynthesizeInput): Promise<Readable> {
    const language = espeakVoiceFor(input.language);
    if (!language) throw new SpeechSynthesisError('rejected', `espeak-ng has no voice for the language ${input.language}`);
    const variant = ESPEAK_VARIANTS[input.voice as keyof typeof ESPEAK_VARIANTS];
    if (!variant) throw new SpeechSynthesisError('rejected', `"${input.voice}" is not a voice of espeak-ng here`);
    if (input.signal?.aborted) throw new SpeechSynthesisError('aborted', 'text-to-speech aborted');

    // Text goes in on stdin, never as an argument: a turn starting with "-" is not an option. -b 1: UTF-8.
    const espeak = spawn(this.options.espeak, ['-v', `${language}+${variant}`, '-b', '1', '--stdout'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const ffmpeg = spawn(this.options.ffmpeg, OPUS_ARGS, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = new PassThrough();
    const stderr = { espeak: collect(espeak), ffmpeg: collect(ffmpeg) };
    let failure: SpeechSynthesisError | null = null;
    const kill = (error: SpeechSynthesisError) => {
      failure ??= error;
      espeak.kill('SIGKILL');
      ffmpeg.kill('SIGKILL');
    };
    const deadline = setTimeout(
      () => kill(new SpeechSynthesisError('timeout', `espeak-ng and ffmpeg took longer than ${this.options.timeoutMs} ms`)),
      this.options.timeoutMs,
    );
    const onAbort = () => kill(new SpeechSynthesisError('aborted', 'text-to-speech aborted'));
    input.signal?.addEventListener('abort', onAbort, { once: true });

    // A process that dies early closes its pipes; the exit code says why, not the EPIPE.
    espeak.stdin.on('error', () => undefined);
    ffmpeg.stdin.on('error', () => undefined);
    espeak.stdout.pipe(ffmpeg.stdin);
    ffmpeg.stdout.pipe(out, { end: false });
    const exits = { done: false };
    // Nobody listening any more (the flight was dropped): stop both rather than finish unheard.
    out.on('close', () => {
      if (!exits.done) kill(new SpeechSynthesisError('aborted', 'text-to-speech abandoned'));
    });

    const [espeakExit, ffmpegExit, stdoutDone] = [exitOf(espeak), exitOf(ffmpeg), new Promise<void>((resolve) => ffmpeg.stdout.once('close', () => resolve()))];
    void Promise.all([espeakExit, ffmpegExit, stdoutDone]).then(([espeakCode, ffmpegCode]) => {
      exits.done = true;
      clearTimeout(deadline);
      input.signal?.removeEventListener('abort', onAbort);
      if (!failure && espeakCode !== 0) failure = new SpeechSynthesisError('synthesizer_failed', `espeak-ng failed: ${lastLine(stderr.espeak())}`);
      if (!failure && ffmpegCode !== 0) failure = new SpeechSynthesisError('synthesizer_failed', `ffmpeg failed: ${lastLine(stderr.ffmpeg())}`);
      if (failure) out.destroy(failure);
      else out.end();
    });

    // Resolves once both have started, so a missing executable is a rejection, not a broken stream.
    try {
      await Promise.all([started(espeak), started(ffmpeg)]);
    } catch (error) {
      kill(new SpeechSynthesisError('synthesizer_failed', (error as Error).message));
      out.destroy();
      throw new SpeechSynthesisError('synthesizer_failed', (error as Error).message, { cause: error });
    }
    espeak.stdin.end(input.text);
    return out;
  }
}

function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) => reject(new Error(`cannot run ${path.basename(child.spawnfile)}: ${error.message}`)));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('close', (code) => resolve(code));
    // Never started: 'close' may not follow.
    child.once('error', () => resolve(-1));
  });
}

/** The end of a tool's messages, for the error (bounded). */
function collect(child: ChildProcess): () => string {
  let text = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    text = (text + chunk).slice(-4096);
  });
  return () => text;
}
