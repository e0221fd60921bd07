import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSpeechRecognizer } from '../../server/speech/create-speech-recognizer.js';
import { buildJsgfGrammar, numberAsWords, optionWords } from '../../server/speech/pocketsphinx-grammar.js';
import { detectPocketsphinx, PocketsphinxSpeechRecognizer } from '../../server/speech/pocketsphinx-speech-recognizer.js';
import { SpeechRecognitionError, type SpeechHints } from '../../server/speech/speech-recognizer.js';

const run = promisify(execFile);

const detection = await detectPocketsphinx();
const hasEspeak = await run('espeak-ng', ['--version']).then(
  () => true,
  () => false,
);
const installation = detection.available ? detection : null;
const skipReason = !detection.available ? detection.reason : !hasEspeak ? 'espeak-ng not found (apt-get install espeak-ng)' : null;
if (skipReason) console.log(`skipping pocketsphinx tests: ${skipReason}`);

const RATING: SpeechHints = { questionType: 'rating', scale: { min: 1, max: 5 } };
const YES_NO: SpeechHints = { questionType: 'yes_no' };

// A temporary directory of this file's own (os.tmpdir() reads TMPDIR), so the check for leftover
// recogniser directories does not see those of other test files recognising speech meanwhile.
const sharedTmp = tmpdir();
process.env.TMPDIR = mkdtempSync(path.join(sharedTmp, 'speech-pocketsphinx-tmp-'));
afterAll(() => {
  const own = process.env.TMPDIR!;
  process.env.TMPDIR = sharedTmp;
  rmSync(own, { recursive: true, force: true });
});

async function leftoverTempDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith('interview-stt-'));
}

describe('JSGF grammars from question hints', () => {
  const everyWord = (): boolean => true;

  it('spells numbers out as spoken', () => {
    expect(numberAsWords(0)).toEqual(['zero']);
    expect(numberAsWords(13)).toEqual(['thirteen']);
    expect(numberAsWords(42)).toEqual(['forty two']);
    expect(numberAsWords(100)).toEqual(['one hundred', 'a hundred', 'hundred']);
  });

  it('builds a rating grammar of the scale, "out of" the maximum and fillers', () => {
    const grammar = buildJsgfGrammar({ questionType: 'rating', scale: { min: 0, max: 10 } }, everyWord)!;
    expect(grammar.text).toContain('public <answer> = [<lead>] [<lead>] <number> [out of <max>] [<tail>];');
    expect(grammar.text).toContain('<number> = (zero) | (one) |');
    expect(grammar.text).toContain('<max> = (ten);');
    expect(grammar.text).toContain('(i would say)');
    expect(grammar.words).toEqual(expect.arrayContaining(['zero', 'ten', 'out', 'of', 'would', 'maybe']));
  });

  it('turns options into word sequences, digits spelled and ranges read as "to"', () => {
    expect(optionWords('1-2 times a week!')).toEqual(['one', 'to', 'two', 'times', 'a', 'week']);
    expect(optionWords('Don’t know')).toEqual(["don't", 'know']);
    const grammar = buildJsgfGrammar({ questionType: 'multiple_choice', options: ['Live chat', 'E-mail', '1-2 times a week'] }, everyWord)!;
    expect(grammar.text).toContain('<option> = (live chat) | (e mail) | (one to two times a week);');
  });

  it('keeps only dictionary words, so an option cannot inject grammar syntax', () => {
    const known = (word: string): boolean => ['email', 'phone', 'call', 'public', 'x', 'the'].includes(word);
    const grammar = buildJsgfGrammar({ questionType: 'multiple_choice', options: ['Email', 'Phone call; public <x> = (', 'Zendesk'] }, known)!;
    expect(grammar.text).toContain('<option> = (email) | (phone call public x);');
    expect(grammar.text).not.toContain('zendesk');
    expect(grammar.text.match(/^public /gm)).toHaveLength(1);
    expect(grammar.text).not.toMatch(/[;<=(]\s*x\s*[;>=]/);
  });

  it('has no grammar for open questions, or when no option is a known word', () => {
    expect(buildJsgfGrammar({ questionType: 'open' }, everyWord)).toBeNull();
    expect(buildJsgfGrammar({ questionType: 'multiple_choice', options: ['Zendesk', 'Intercom'] }, () => false)).toBeNull();
  });
});

describe('choosing a speech recognizer without a provider', () => {
  it('answers no recognizer, and says how to get one, when pocketsphinx is not installed', async () => {
    const choice = await createSpeechRecognizer({ pocketsphinxModelDirs: ['/nonexistent/pocketsphinx/model'] });
    expect(choice.recognizer).toBeNull();
    expect(choice.description).toMatch(/^no speech-to-text: set STT_BASE_URL or install pocketsphinx/);
  });

  it.skipIf(!detection.available)('falls back to pocketsphinx when it is installed', async () => {
    const choice = await createSpeechRecognizer();
    expect(choice.recognizer?.name).toBe('pocketsphinx');
  });
});

describe.skipIf(skipReason !== null)('pocketsphinx speech recognition (espeak-ng speech)', () => {
  let dir: string;
  let recognizer: PocketsphinxSpeechRecognizer;
  const timings: string[] = [];

  /** espeak-ng's US voice at 140 words per minute, as a 22 kHz WAV. */
  async function speak(name: string, text: string): Promise<string> {
    const file = path.join(dir, name);
    await run('espeak-ng', ['-v', 'en-us', '-s', '140', '-w', file, text]);
    return file;
  }

  async function timed<T>(label: string, seconds: number, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await work();
    timings.push(`${label}: ${seconds.toFixed(1)} s of audio in ${Math.round(performance.now() - started)} ms → ${JSON.stringify(result)}`);
    return result;
  }

  async function durationOf(file: string): Promise<number> {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
    return Number(stdout.trim());
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'speech-pocketsphinx-test-'));
    recognizer = new PocketsphinxSpeechRecognizer(installation!);
  });

  afterEach(async () => {
    expect(await leftoverTempDirs()).toEqual([]);
  });

  afterAll(async () => {
    console.log(`pocketsphinx timings:\n  ${timings.join('\n  ')}`);
    await rm(dir, { recursive: true, force: true });
  });

  it('recognises "four out of five" with a rating grammar, and reports a confidence', async () => {
    const file = await speak('rating.wav', 'four out of five');
    const result = await timed('rating "four out of five"', await durationOf(file), () =>
      recognizer.transcribe({ file, contentType: 'audio/wav', language: 'en', hints: RATING }),
    );
    expect(result?.text).toContain('four');
    expect(result?.confidence).toBeGreaterThan(0.5);
    expect(result?.confidence).toBeLessThanOrEqual(1);
  });

  it('recognises a 3–4 s rating answer with fillers', async () => {
    const file = path.join(dir, 'rating-long.wav');
    await run('espeak-ng', ['-v', 'en-us', '-s', '110', '-w', file, 'i think i would say four out of five']);
    const result = await timed('rating "i think i would say four out of five"', await durationOf(file), () =>
      recognizer.transcribe({ file, contentType: 'audio/wav', language: 'en', hints: RATING }),
    );
    expect(result?.text).toContain('four out of five');
  });

  it('reads a rating the same however much exact-zero silence precedes it (a noise floor and dither under the answer)', async () => {
    // Recorded by the voice page in Chromium from the test microphone (whose silence is exact
    // zeros, as a browser's with noise suppression on is): espeak-ng's "i would say a four" after
    // 0.45 s of zeros. Without a noise floor or dither, pocketsphinx read this recording as
    // "i would study or" and the same speech after 0.3 s of zeros right.
    const recorded = path.join(import.meta.dirname, '..', 'fixtures', 'speech', 'rating-after-digital-silence.flac');
    const results = [];
    for (const extraMs of [0, 150, 500]) {
      const file = path.join(dir, `rating-lead-${extraMs}.wav`);
      await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', recorded, '-af', `adelay=${extraMs}:all=1`, file]);
      results.push(await recognizer.transcribe({ file, contentType: 'audio/wav', language: 'en', hints: RATING }));
    }
    for (const result of results) expect(result?.text).toMatch(/^i would say (a )?four$/);
  });

  it('recognises a rating recorded as WebM/Opus, as browsers send it', async () => {
    const wav = await speak('rating-webm.wav', 'i would say three');
    const webm = path.join(dir, 'rating.webm');
    await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '32k', webm]);
    const result = await timed('rating "i would say three" (webm/opus)', await durationOf(wav), () =>
      recognizer.transcribe({ file: webm, contentType: 'audio/webm;codecs=opus', language: 'en-US', hints: RATING }),
    );
    expect(result?.text).toContain('three');
  });

  it('while a rating is confirmed, recognises "yes" and "no, a three" (yes/no or the value meant instead)', async () => {
    const confirming: SpeechHints = { ...RATING, confirming: true };
    const yes = await speak('confirm-yes.wav', 'yes');
    const corrected = await speak('confirm-corrected.wav', 'no, a three');
    const heardYes = await timed('confirm "yes"', await durationOf(yes), () =>
      recognizer.transcribe({ file: yes, contentType: 'audio/wav', language: 'en', hints: confirming }),
    );
    const heardCorrection = await timed('confirm "no, a three"', await durationOf(corrected), () =>
      recognizer.transcribe({ file: corrected, contentType: 'audio/wav', language: 'en', hints: confirming }),
    );
    expect(heardYes?.text).toMatch(/\b(yes|yeah|yep|yup)\b/);
    expect(heardCorrection?.text).toMatch(/\bno\b.*\bthree\b/);
  });

  it('recognises yes and no with a yes/no grammar', async () => {
    const yes = await speak('yes.wav', 'yes');
    const no = await speak('no.wav', 'no');
    const heardYes = await timed('yes_no "yes"', await durationOf(yes), () =>
      recognizer.transcribe({ file: yes, contentType: 'audio/wav', language: 'en', hints: YES_NO }),
    );
    const heardNo = await timed('yes_no "no"', await durationOf(no), () =>
      recognizer.transcribe({ file: no, contentType: 'audio/wav', language: 'en', hints: YES_NO }),
    );
    expect(heardYes?.text).toMatch(/\b(yes|yeah|yep|yup)\b/);
    expect(heardNo?.text).toMatch(/\b(no|nope|nah)\b/);
  });

  it('recognises an option with a multiple-choice grammar', async () => {
    const file = await speak('choice.wav', 'live chat');
    const result = await timed('multiple_choice "live chat"', await durationOf(file), () =>
      recognizer.transcribe({
        file,
        contentType: 'audio/wav',
        language: 'en',
        hints: { questionType: 'multiple_choice', options: ['Email', 'Phone call', 'Live chat'] },
      }),
    );
    expect(result?.text).toBe('live chat');
  });

  it('gives an open answer some text from the free language model, with a confidence', async () => {
    const file = await speak('open.wav', 'I really loved the product, it made my work much easier');
    const result = await timed('open answer (language model)', await durationOf(file), () =>
      recognizer.transcribe({ file, contentType: 'audio/wav', language: 'en', hints: { questionType: 'open' } }),
    );
    expect(result?.text.length).toBeGreaterThan(0);
    expect(result?.confidence).toBeGreaterThanOrEqual(0);
  });

  it('does not force a sentence outside the grammar into a rating', async () => {
    const file = await speak('off-grammar.wav', 'I really loved the product, it made my work much easier');
    const result = await timed('rating grammar, sentence outside it', await durationOf(file), () =>
      recognizer.transcribe({ file, contentType: 'audio/wav', language: 'en', hints: RATING }),
    );
    // The grammar alone says "like three probably"; the language model's words are returned instead.
    expect(result?.text ?? '').not.toMatch(/^(like |maybe |probably )*(one|two|three|four|five)\b/);
  });

  it('answers null for languages other than English without decoding anything', async () => {
    const file = await speak('english.wav', 'four');
    expect(await recognizer.transcribe({ file, contentType: 'audio/wav', language: 'de-DE', hints: RATING })).toBeNull();
  });

  it('answers null for a clip too short to hold an answer', async () => {
    const file = path.join(dir, 'click.webm');
    await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono', '-t', '0.05', '-c:a', 'libopus', file]);
    expect(await recognizer.transcribe({ file, contentType: 'audio/webm', language: 'en' })).toBeNull();
  });

  it('reports bytes that are not audio as unsupported_audio', async () => {
    const file = path.join(dir, 'garbage.webm');
    await writeFile(file, randomBytes(4096));
    const error = await recognizer.transcribe({ file, contentType: 'audio/webm', language: 'en' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SpeechRecognitionError);
    expect((error as SpeechRecognitionError).reason).toBe('unsupported_audio');
  });

  it('kills the recogniser and cleans up on timeout and on abort', async () => {
    const file = await speak('slow.wav', 'I really loved the product, it made my work much easier');
    const slow = new PocketsphinxSpeechRecognizer({ ...installation!, timeoutMs: 150 });
    const timeout = await slow.transcribe({ file, contentType: 'audio/wav', language: 'en' }).catch((caught: unknown) => caught);
    expect(timeout).toBeInstanceOf(SpeechRecognitionError);
    expect((timeout as SpeechRecognitionError).reason).toBe('timeout');

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const aborted = await recognizer
      .transcribe({ file, contentType: 'audio/wav', language: 'en', signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect((aborted as SpeechRecognitionError).reason).toBe('aborted');

    // This process's own children only: other test files recognise speech at the same time.
    const { stdout } = await run('ps', ['--ppid', String(process.pid), '-o', 'args']).catch(() => ({ stdout: '' }));
    expect(stdout).not.toContain('interview-stt-');
  });
});
