import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { randomBase62 } from '../../lib/ids.js';
import { lastLine, runCommand } from '../../lib/child-process.js';
import { sha256OfFile } from '../../lib/sha256-file.js';
import { probeAudio } from '../../speech/audio-probe.js';
import type { FileStorage } from '../../storage/file-storage.js';

/** Re-encoding an interview-long merged recording still ends well within a request. */
const SILENCE_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * How each stored audio format is written again: the same container and content type. WAV stays
 * lossless PCM (so the rest of it is unchanged sample for sample); compressed formats are
 * re-encoded with the codec browsers record them in.
 */
const ENCODERS: Record<string, string[]> = {
  'audio/wav': ['-c:a', 'pcm_s16le', '-f', 'wav'],
  'audio/webm': ['-c:a', 'libopus', '-b:a', '48k', '-f', 'webm'],
  'audio/ogg': ['-c:a', 'libopus', '-b:a', '48k', '-f', 'ogg'],
  'audio/mpeg': ['-c:a', 'libmp3lame', '-q:a', '4', '-f', 'mp3'],
  'audio/mp4': ['-c:a', 'aac', '-b:a', '96k', '-f', 'mp4'],
};

/** The stored audio formats a redaction can silence. */
export const SILENCEABLE_TYPES = Object.keys(ENCODERS);

export function canSilence(contentType: string): boolean {
  return contentType in ENCODERS;
}

export interface StoredAudio {
  id: string;
  storageKey: string;
  contentType: string;
  durationSeconds: number | null;
}

export interface SilencedAudio {
  storageKey: string;
  size: number;
  sha256: string;
  durationSeconds: number | null;
}

function seconds(value: number): string {
  return value.toFixed(6);
}

/**
 * Writes a copy of a stored recording with `[start, end]` (seconds into the file) silenced, sample
 * by sample (`aeval`, not a per-frame volume switch, so no frame that starts just before the range
 * keeps its sound), under a new key: the stored original is untouched until the caller swaps the
 * record over to the copy, so a failure never leaves a half-written recording behind.
 */
export async function silenceStoredAudio(
  deps: { storage: FileStorage; ffmpeg: string },
  audio: StoredAudio,
  range: { start: number; end: number },
  work: string,
): Promise<SilencedAudio> {
  const encoder = ENCODERS[audio.contentType];
  if (!encoder) throw new Error(`cannot rewrite ${audio.contentType} audio`);
  const input = path.join(work, `${audio.id}-in`);
  const output = path.join(work, `${audio.id}-out`);
  await pipeline(await deps.storage.open(audio.storageKey), createWriteStream(input));
  const filter = `aeval=exprs='val(ch)*(1-between(t,${seconds(range.start)},${seconds(range.end)}))':c=same`;
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-y',
    '-i',
    input,
    '-vn',
    '-sn',
    '-dn',
    '-map_metadata',
    '0',
    '-af',
    filter,
    ...encoder,
    output,
  ];
  const result = await runCommand(deps.ffmpeg, args, AbortSignal.timeout(SILENCE_TIMEOUT_MS));
  if (result.code !== 0) throw new Error(`ffmpeg could not silence the recording: ${lastLine(result.stderr)}`);
  const facts = await probeAudio(output);
  const storageKey = `${path.posix.dirname(audio.storageKey)}/${audio.id}-${randomBase62(12)}`;
  const sha256 = await sha256OfFile(output);
  const { size } = await deps.storage.put(storageKey, createReadStream(output));
  return { storageKey, size, sha256, durationSeconds: facts?.durationSeconds ?? audio.durationSeconds };
}
