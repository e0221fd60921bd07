import { constants } from 'node:fs';
import { access, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandStartError, type CommandResult, findExecutable, lastLine, runCommand } from '../lib/child-process.js';
import { buildJsgfGrammar, GRAMMAR_FILLERS } from './pocketsphinx-grammar.js';
import {
  SpeechRecognitionError,
  twoLetterLanguage,
  type SpeechHints,
  type SpeechRecognizer,
  type TranscribeInput,
  type Transcription,
} from './speech-recognizer.js';

/**
 * Offline English speech-to-text on Debian's `pocketsphinx` 0.8 (`pocketsphinx_batch`) and
 * `pocketsphinx-en-us`, with `ffmpeg` to decode what browsers record. No network, no model
 * download. Accuracy on free speech is modest, so structured questions are decoded against a
 * grammar of their expected answers first.
 */

/** Where Debian's `pocketsphinx-en-us` (and a `make install` of 5prealpha) put the US English model. */
const DEFAULT_MODEL_DIRS = ['/usr/share/pocketsphinx/model/en-us', '/usr/local/share/pocketsphinx/model/en-us'];

/** Model files the recogniser passes explicitly, relative to the model directory. */
const MODEL_FILES = {
  acousticModel: 'en-us',
  dictionary: 'cmudict-en-us.dict',
  languageModel: 'en-us.lm.bin',
  phoneModel: 'en-us-phone.lm.bin',
} as const;
const ACOUSTIC_MODEL_FILES = ['mdef', 'means', 'variances', 'transition_matrices', 'feat.params'];

export interface PocketsphinxInstallation {
  /** `pocketsphinx_batch`: it decodes a file as one utterance (the `_continuous` tool splits at pauses). */
  binary: string;
  modelDir: string;
  ffmpeg: string;
}

export type PocketsphinxDetection = ({ available: true } & PocketsphinxInstallation) | { available: false; reason: string };

/** Finds the decoder, the model and ffmpeg; the engine calls this once at start. */
export async function detectPocketsphinx(options: { modelDirs?: string[] } = {}): Promise<PocketsphinxDetection> {
  const binary = await findExecutable('pocketsphinx_batch');
  if (!binary) return { available: false, reason: 'pocketsphinx_batch not found on PATH (apt-get install pocketsphinx)' };
  const ffmpeg = await findExecutable('ffmpeg');
  if (!ffmpeg) return { available: false, reason: 'ffmpeg not found on PATH (needed to decode WebM/Ogg/MP3/M4A; apt-get install ffmpeg)' };
  for (const modelDir of options.modelDirs ?? DEFAULT_MODEL_DIRS) {
    const required = [
      ...ACOUSTIC_MODEL_FILES.map((file) => path.join(modelDir, MODEL_FILES.acousticModel, file)),
      path.join(modelDir, MODEL_FILES.dictionary),
      path.join(modelDir, MODEL_FILES.languageModel),
      path.join(modelDir, MODEL_FILES.phoneModel),
    ];
    if ((await Promise.all(required.map(isReadable))).every(Boolean)) return { available: true, binary, modelDir, ffmpeg };
  }
  return { available: false, reason: 'pocketsphinx English model not found (apt-get install pocketsphinx-en-us)' };
}

export interface PocketsphinxSpeechRecognizerOptions extends PocketsphinxInstallation {
  /** Whole transcription: decoding the audio and every recogniser run. */
  timeoutMs?: number;
  /** Longer answers are recognised up to this point only (the decoder holds the whole utterance in memory). */
  maxSeconds?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_SECONDS = 600;
/** 16 kHz, 16-bit mono: what the en-us acoustic model was trained on. */
const BYTES_PER_SECOND = 32_000;
/** Shorter than this is a click, not an answer. */
const MIN_AUDIO_BYTES = BYTES_PER_SECOND / 10;

/**
 * A grammar always yields one of its sentences, even for "it depends on the day" or a cough,
 * so its answer is checked against an unconstrained phone loop decoded over the same audio:
 * - score: the grammar path's acoustic score minus the phone loop's, per 10 ms frame. Speech
 *   that is one of the grammar's sentences fits it nearly as well as the best phone sequence;
 *   other speech fits it much worse.
 * - absorbed speech: the share of the phone loop's speech frames that the grammar path spends in
 *   silence or noise. A long sentence comes out as "like three probably" with most of it
 *   swallowed by the silence model, and a fine score.
 * Measured on espeak-ng speech (six voices, three speeds, with and without noise): answers
 * inside the grammar had at most 4 % absorbed. Of 36 such answers, 26 came out with the right
 * value, 2 with a wrong one and 8 with none (grammar rejected, language model unhelpful); of
 * 25 sentences outside, 3 passed the grammar as an answer ("i have no idea" → "i'd say two").
 * A phone loop inside the grammar ("garbage model") was tried first: pocketsphinx 0.8's
 * grammar search then often ends on no final state and returns nothing.
 */
const GRAMMAR_MIN_SCORE = -20;
/**
 * Pink noise at this amplitude (about -54 dBFS) is mixed under every answer before decoding.
 * Browsers with noise suppression on record silence as exact zeros, which the acoustic model
 * (trained on real rooms) never heard: espeak-ng ratings (4 voices × 2 speeds × 10 answers) in
 * exact-zero silence read right 45 times of 80, with this floor 60 (with -40 dBFS, 66); yes/no
 * 34 → 42 of 48, choices 7 → 28 of 48; sentences outside the rating grammar passing as a value
 * 2 → 1 of 16. Silence alone still gives no text. A real microphone's own noise is far above
 * the floor, so recordings that have one are unchanged in effect.
 */
const NOISE_FLOOR = 0.002;
const GRAMMAR_MAX_ABSORBED = 0.08;
/** Spread of the logistic that turns the score into a confidence: 0.5 at the limit, 0.88 at -10, 0.98 at 0. */
const GRAMMAR_CONFIDENCE_SPREAD = 5;

type Decoder = 'grammar' | 'phone_loop' | 'language_model';

interface DecodeResult {
  /** The best hypothesis' words, pronunciation variants (`a(2)`) already folded. */
  words: string[];
  /** Per-word posterior probabilities (from `-ctm`); the grammar search reports 1 for every word. */
  wordConfidences: number[];
  /** Acoustic score of the best path and its words with their frames (from `-hypseg`). */
  acousticScore: number | null;
  segments: Segment[];
  frames: number;
}

interface Segment {
  word: string;
  /** First frame (10 ms each) and the frame after the last. */
  start: number;
  end: number;
}

/** See the module comment. English only: any other language answers null (the engine then stores the audio without text). */
export class PocketsphinxSpeechRecognizer implements SpeechRecognizer {
  readonly name = 'pocketsphinx';
  readonly runsLocally = true;
  /** word → its dictionary lines (variants included), read once: grammars need a dictionary of their own words. */
  private dictionary: Promise<Map<string, string[]>> | null = null;

  constructor(private readonly options: PocketsphinxSpeechRecognizerOptions) {}

  /** The installed acoustic model is English. */
  hears(language: string): boolean {
    return twoLetterLanguage(language) === 'en';
  }

  async transcribe(input: TranscribeInput): Promise<Transcription | null> {
    if (!this.hears(input.language)) return null;
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    // Ends whatever still runs when a step fails.
    const done = new AbortController();
    const signal = AbortSignal.any(input.signal ? [timeout, done.signal, input.signal] : [timeout, done.signal]);

    const dir = await mkdtemp(path.join(tmpdir(), 'interview-stt-'));
    try {
      const audio = path.join(dir, 'answer.raw');
      await this.decodeAudio(input.file, audio, signal);
      if ((await stat(audio)).size < MIN_AUDIO_BYTES) return null;
      await writeFile(path.join(dir, 'answer.ctl'), 'answer\n');

      if (input.hints && input.hints.questionType !== 'open') {
        const answer = await this.decodeWithGrammar(dir, input.hints, signal);
        if (answer) return answer;
      }
      const free = await this.decode(dir, 'language_model', signal);
      const text = cleanText(free.words, false);
      return text ? { text, confidence: mean(free.wordConfidences) } : null;
    } catch (error) {
      if (input.signal?.aborted) throw new SpeechRecognitionError('aborted', 'speech recognition aborted', { cause: error });
      if (timeout.aborted) throw new SpeechRecognitionError('timeout', `speech recognition took longer than ${timeoutMs} ms`);
      if (error instanceof SpeechRecognitionError) throw error;
      throw new SpeechRecognitionError('recognizer_failed', `speech recognition failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    } finally {
      done.abort();
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** null when the grammar gives nothing, or its answer does not fit the audio well enough (see GRAMMAR_MIN_SCORE). */
  private async decodeWithGrammar(dir: string, hints: SpeechHints, signal: AbortSignal): Promise<Transcription | null> {
    const dictionary = await this.loadDictionary();
    const grammar = buildJsgfGrammar(hints, (word) => dictionary.has(word));
    if (!grammar) return null;
    // A dictionary of just the grammar's words loads in a fraction of the time of the 134,000-word one.
    const lines = grammar.words.flatMap((word) => dictionary.get(word) ?? []);
    await Promise.all([writeFile(path.join(dir, 'answer.gram'), grammar.text), writeFile(path.join(dir, 'answer.dict'), `${lines.join('\n')}\n`)]);
    const [constrained, reference] = await Promise.all([this.decode(dir, 'grammar', signal), this.decode(dir, 'phone_loop', signal)]);
    const text = cleanText(constrained.words, true);
    if (!text || constrained.acousticScore === null || reference.acousticScore === null || constrained.frames === 0) return null;
    const score = (constrained.acousticScore - reference.acousticScore) / constrained.frames;
    if (score < GRAMMAR_MIN_SCORE || absorbedSpeech(constrained, reference) > GRAMMAR_MAX_ABSORBED) return null;
    const confidence = 1 / (1 + Math.exp(-(score - GRAMMAR_MIN_SCORE) / GRAMMAR_CONFIDENCE_SPREAD));
    return { text, confidence: Math.round(confidence * 1000) / 1000 };
  }

  /** Any container browsers record → raw 16 kHz mono 16-bit PCM (ffmpeg: sox has no WebM, Opus-in-WebM or AAC). */
  private async decodeAudio(file: string, output: string, signal: AbortSignal): Promise<void> {
    const args = [
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      // `file:` keeps a path from being read as a protocol (`pipe:`, `http:`) or an option.
      '-i',
      `file:${path.resolve(file)}`,
      // A faint, fixed noise floor under the answer (see NOISE_FLOOR).
      '-filter_complex',
      `[0:a:0]aformat=channel_layouts=mono,aresample=16000[answer];anoisesrc=color=pink:amplitude=${NOISE_FLOOR}:seed=1:sample_rate=16000[floor];[answer][floor]amix=inputs=2:duration=first:normalize=0[out]`,
      '-map',
      '[out]',
      '-vn',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      '-t',
      String(this.options.maxSeconds ?? DEFAULT_MAX_SECONDS),
      '-f',
      's16le',
      '-y',
      `file:${output}`,
    ];
    const result = await run(this.options.ffmpeg, args, signal);
    if (result.code !== 0) {
      throw new SpeechRecognitionError('unsupported_audio', `ffmpeg could not decode the audio: ${lastLine(result.stderr)}`);
    }
  }

  private async decode(dir: string, decoder: Decoder, signal: AbortSignal): Promise<DecodeResult> {
    const model = this.options.modelDir;
    const out = (suffix: string): string => path.join(dir, `${decoder}.${suffix}`);
    const args = [
      '-hmm',
      path.join(model, MODEL_FILES.acousticModel),
      '-ctl',
      path.join(dir, 'answer.ctl'),
      '-cepdir',
      dir,
      '-cepext',
      '.raw',
      '-adcin',
      'yes',
      // Half a bit of noise, from a fixed seed (the same audio always reads the same): with the
      // noise floor (NOISE_FLOOR), how much exact-zero silence an answer holds no longer changes
      // what is heard (the same "i would say a four" read as "i would study or" after 0.45 s of
      // zeros, right after 0.3 s).
      '-dither',
      'yes',
      '-seed',
      '1',
      '-hyp',
      out('hyp'),
      '-hypseg',
      out('seg'),
      '-ctm',
      out('ctm'),
      '-logfn',
      out('log'),
    ];
    if (decoder === 'grammar') args.push('-dict', path.join(dir, 'answer.dict'), '-jsgf', path.join(dir, 'answer.gram'));
    // Context-independent phones: the triphone loop is ~100 times slower and no better a yardstick here.
    if (decoder === 'phone_loop') {
      args.push('-dict', path.join(dir, 'answer.dict'), '-allphone', path.join(model, MODEL_FILES.phoneModel), '-allphone_ci', 'yes');
    }
    if (decoder === 'language_model') {
      args.push('-dict', path.join(model, MODEL_FILES.dictionary), '-lm', path.join(model, MODEL_FILES.languageModel));
    }

    const result = await run(this.options.binary, args, signal);
    if (result.code !== 0) {
      const log = await readFile(out('log'), 'utf8').catch(() => '');
      const reason = log.split('\n').find((line) => line.startsWith('ERROR')) ?? lastLine(result.stderr);
      throw new SpeechRecognitionError('recognizer_failed', `pocketsphinx (${decoder}) failed: ${reason}`);
    }
    const [hyp, seg, ctm] = await Promise.all([
      readFile(out('hyp'), 'utf8'),
      readFile(out('seg'), 'utf8').catch(() => ''),
      readFile(out('ctm'), 'utf8').catch(() => ''),
    ]);
    return { words: parseHyp(hyp), wordConfidences: parseCtm(ctm), ...parseHypseg(seg) };
  }

  private async loadDictionary(): Promise<Map<string, string[]>> {
    this.dictionary ??= readFile(path.join(this.options.modelDir, MODEL_FILES.dictionary), 'utf8').then(
      (text) => {
        const entries = new Map<string, string[]>();
        for (const line of text.split('\n')) {
          const word = line.slice(0, line.indexOf(' ')).replace(/\(\d+\)$/, '');
          if (!word) continue;
          const lines = entries.get(word);
          if (lines) lines.push(line);
          else entries.set(word, [line]);
        }
        return entries;
      },
      (error: unknown) => {
        this.dictionary = null;
        throw error;
      },
    );
    return this.dictionary;
  }
}

/** `-hyp` line: `four out of five (answer -4036)`. */
function parseHyp(content: string): string[] {
  const line = content.split('\n').find((candidate) => candidate.trim().length > 0) ?? '';
  return line
    .replace(/\s*\([^()]*\)\s*$/, '')
    .split(/\s+/)
    .map((word) => word.replace(/\(\d+\)$/, ''))
    .filter((word) => word.length > 0);
}

/** `-hypseg` line: `answer S 0 T <total> A <acoustic> L <language>` then `<start> <ascr> <lscr> <word>` per word, then the end frame. */
function parseHypseg(content: string): { acousticScore: number | null; segments: Segment[]; frames: number } {
  const fields = (content.split('\n')[0] ?? '').trim().split(/\s+/);
  const acousticAt = fields.indexOf('A');
  const languageAt = fields.indexOf('L');
  const acousticScore = acousticAt > 0 ? Number(fields[acousticAt + 1]) : Number.NaN;
  const frames = Number(fields[fields.length - 1]);
  const segments: Segment[] = [];
  if (languageAt > 0 && Number.isInteger(frames)) {
    const words = fields.slice(languageAt + 2, -1);
    for (let i = 0; i + 3 < words.length; i += 4) {
      const start = Math.max(0, Number(words[i]));
      const next = i + 4 < words.length ? Number(words[i + 4]) : frames;
      segments.push({ word: words[i + 3]!, start, end: next });
    }
  }
  return {
    acousticScore: Number.isFinite(acousticScore) ? acousticScore : null,
    segments: segments.filter((segment) => Number.isInteger(segment.start) && Number.isInteger(segment.end)),
    frames: Number.isInteger(frames) && frames > 0 ? frames : 0,
  };
}

/** Share of the frames the phone loop hears as speech that the grammar path spends in silence or noise. */
function absorbedSpeech(constrained: DecodeResult, reference: DecodeResult): number {
  const frames = Math.max(constrained.frames, reference.frames);
  const speech = new Uint8Array(frames);
  for (const segment of reference.segments) {
    if (!PHONE_LOOP_NON_SPEECH.has(segment.word)) speech.fill(1, segment.start, Math.min(segment.end, frames));
  }
  let absorbed = 0;
  for (const segment of constrained.segments) {
    if (!isNonWord(segment.word)) continue;
    for (let frame = segment.start; frame < Math.min(segment.end, frames); frame++) absorbed += speech[frame]!;
  }
  const total = speech.reduce((sum, value) => sum + value, 0);
  return total > 0 ? absorbed / total : 0;
}

const PHONE_LOOP_NON_SPEECH = new Set(['SIL', '+NSN+', '+SPN+', '(NULL)']);

/** `-ctm` lines: `answer 1 <start> <duration> <word> <posterior>`. */
function parseCtm(content: string): number[] {
  return content
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 6 && !isNonWord(fields[4]!))
    .map((fields) => Number(fields[5]))
    .filter((value) => Number.isFinite(value));
}

function isNonWord(word: string): boolean {
  return word.startsWith('<') || word.startsWith('[') || word.startsWith('(');
}

function cleanText(words: string[], dropFillers: boolean): string {
  return words.filter((word) => !isNonWord(word) && !(dropFillers && GRAMMAR_FILLERS.has(word))).join(' ');
}

function mean(values: number[]): number | null {
  if (values.length === 0) return null;
  return Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 1000) / 1000;
}

/** Runs a tool; one that cannot start is the recognizer failing. */
async function run(command: string, args: string[], signal: AbortSignal): Promise<CommandResult> {
  try {
    return await runCommand(command, args, signal);
  } catch (error) {
    if (error instanceof CommandStartError) throw new SpeechRecognitionError('recognizer_failed', error.message, { cause: error });
    throw error;
  }
}

async function isReadable(file: string): Promise<boolean> {
  try {
    await access(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
