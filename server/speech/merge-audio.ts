import { lastLine, runCommand } from '../lib/child-process.js';

/** What a merged recording is: Ogg Opus, small and played by every current browser. */
export const MERGED_AUDIO = { contentType: 'audio/ogg', extension: 'ogg' } as const;

/** Merging a long interview's answers still finishes well within a job's time. */
const MERGE_TIMEOUT_MS = 5 * 60 * 1000;

class AudioMergeError extends Error {}

/** One answer's recording: where it goes on the session's timeline, and how much of it is the answer. */
export interface AudioClip {
  file: string;
  offsetSeconds: number;
  /** The answer's length: the recording is read no further (a longer one holds what was not this answer). */
  seconds: number;
}

/** ffmpeg's duration argument: seconds to the millisecond. */
const duration = (seconds: number) => String(Math.max(0, Math.round(seconds * 1000)) / 1000);

/**
 * One recording of the whole session: each answer's audio placed at its offset from the session's
 * start (silence between, where the interviewer spoke), so a player's position matches the
 * transcript's times. ffmpeg decodes whatever browsers recorded (WebM, Ogg, MP4, MP3, WAV) and
 * writes Ogg Opus, mono, 32 kbit/s. Each input is read for its clip's length only (`-t` before
 * `-i`) and the output stops at `totalSeconds`: the work is bounded by the session's length,
 * whatever the files hold (an hour of silence uploaded for a 3-second answer costs 3 seconds).
 */
export async function mergeAudioClips(ffmpeg: string, clips: AudioClip[], output: string, totalSeconds: number): Promise<void> {
  if (clips.length === 0) throw new AudioMergeError('no clips to merge');
  const inputs = clips.flatMap((clip) => ['-t', duration(clip.seconds), '-i', clip.file]);
  const placed = clips.map(
    (clip, index) => `[${index}:a]atrim=end=${duration(clip.seconds)},aresample=48000,aformat=channel_layouts=mono,adelay=${Math.max(0, Math.round(clip.offsetSeconds * 1000))}:all=1[a${index}]`,
  );
  const mix = `${clips.map((_, index) => `[a${index}]`).join('')}amix=inputs=${clips.length}:normalize=0:duration=longest[out]`;
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...inputs, '-filter_complex', [...placed, mix].join(';'), '-map', '[out]', '-t', duration(totalSeconds), '-ac', '1', '-c:a', 'libopus', '-b:a', '32k', output];
  const result = await runCommand(ffmpeg, args, AbortSignal.timeout(MERGE_TIMEOUT_MS));
  if (result.code !== 0) throw new AudioMergeError(`ffmpeg could not merge the answers: ${lastLine(result.stderr)}`);
}
