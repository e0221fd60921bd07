import { lastLine, runCommand } from '../lib/child-process.js';

/** What a session recording is: Ogg Opus, small and played by every current browser. */
export const MERGED_AUDIO = { contentType: 'audio/ogg', extension: 'ogg' } as const;

/** Merging a long interview's turns still finishes well within a job's time. */
const MERGE_TIMEOUT_MS = 5 * 60 * 1000;

class AudioMergeError extends Error {}

/** One turn's recording: where it goes on the session's timeline, and how much of it is the turn. */
export interface AudioClip {
  file: string;
  offsetSeconds: number;
  /** The turn's length: the recording is read no further (a longer one holds what was not this turn). */
  seconds: number;
}

/** Where the session's recordings are written; `ai` only when there are AI clips. */
export interface TrackOutputs {
  participant: string;
  ai?: string | undefined;
  merged: string;
}

/** ffmpeg's duration argument: seconds to the millisecond. */
const duration = (seconds: number) => String(Math.max(0, Math.round(seconds * 1000)) / 1000);

const ENCODE = ['-ac', '1', '-c:a', 'libopus', '-b:a', '32k'];

/**
 * The session's recordings in one ffmpeg run (each clip decoded once): the participant's track
 * (the answers), the AI's track (its spoken turns) when there are AI clips, and the merged one
 * (both mixed; the participant's track again when there is no AI track). Each clip is placed at
 * its offset from the session's start, with silence between, so a player's position matches the
 * transcript's times; every output is exactly `totalSeconds` long (padded with silence, cut at the
 * session's end). ffmpeg decodes whatever browsers recorded or the synthesizer made (WebM, Ogg,
 * MP4, MP3, WAV) and writes Ogg Opus, mono, 32 kbit/s. Each input is read for its clip's length
 * only (`-t` before `-i`): the work is bounded by the session's length, whatever the files hold
 * (an hour of silence uploaded for a 3-second answer costs 3 seconds).
 */
export async function mergeSessionTracks(
  ffmpeg: string,
  tracks: { participant: AudioClip[]; ai: AudioClip[] },
  outputs: TrackOutputs,
  totalSeconds: number,
): Promise<void> {
  if (tracks.participant.length === 0) throw new AudioMergeError('no answers to merge');
  const withAi = tracks.ai.length > 0 && outputs.ai !== undefined;
  const clips = [...tracks.participant, ...(withAi ? tracks.ai : [])];
  const inputs = clips.flatMap((clip) => ['-t', duration(clip.seconds), '-i', clip.file]);
  const placed = clips.map(
    (clip, index) =>
      `[${index}:a]atrim=end=${duration(clip.seconds)},aresample=48000,aformat=channel_layouts=mono,adelay=${Math.max(0, Math.round(clip.offsetSeconds * 1000))}:all=1[c${index}]`,
  );
  const total = duration(totalSeconds);
  const track = (from: number, count: number, split: string) =>
    `${Array.from({ length: count }, (_, index) => `[c${from + index}]`).join('')}amix=inputs=${count}:normalize=0:duration=longest,apad=whole_dur=${total},atrim=end=${total},asplit=2${split}`;
  const participantCount = tracks.participant.length;
  const graph = withAi
    ? [
        ...placed,
        track(0, participantCount, '[p][pm]'),
        track(participantCount, tracks.ai.length, '[a][am]'),
        // The tracks never overlap by construction (an AI turn ends where the next answer starts): summed, not averaged.
        '[pm][am]amix=inputs=2:normalize=0:duration=longest[m]',
      ]
    : [...placed, track(0, participantCount, '[p][m]')];
  const args = [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...inputs, '-filter_complex', graph.join(';')],
    ...['-map', '[p]', '-t', total, ...ENCODE, outputs.participant],
    ...(withAi ? ['-map', '[a]', '-t', total, ...ENCODE, outputs.ai!] : []),
    ...['-map', '[m]', '-t', total, ...ENCODE, outputs.merged],
  ];
  const result = await runCommand(ffmpeg, args, AbortSignal.timeout(MERGE_TIMEOUT_MS));
  if (result.code !== 0) throw new AudioMergeError(`ffmpeg could not merge the session's recordings: ${lastLine(result.stderr)}`);
}
