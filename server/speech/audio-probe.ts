import { open, type FileHandle } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import { parseFile } from 'music-metadata';

/** The audio formats browsers record or people upload, named as the session file record stores them. */
export type AudioContentType = 'audio/webm' | 'audio/ogg' | 'audio/wav' | 'audio/mpeg' | 'audio/mp4';

const EXTENSIONS: Record<AudioContentType, string> = { 'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/wav': 'wav', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a' };

/** The file name extension of an audio content type (`bin` for anything else). */
export function audioExtensionOf(contentType: string): string {
  return EXTENSIONS[contentType as AudioContentType] ?? 'bin';
}

export interface AudioFacts {
  contentType: AudioContentType;
  /** null when the file does not say and cannot be measured cheaply (or is damaged). */
  durationSeconds: number | null;
}

/** Recognised from the bytes (file-type); video containers count only when they hold no video track. */
const FORMATS: Record<string, { contentType: AudioContentType; container: 'video' | 'audio' }> = {
  'audio/webm': { contentType: 'audio/webm', container: 'audio' },
  // WebM's signature cannot tell audio-only files apart: browsers' `audio/webm` recordings land here.
  'video/webm': { contentType: 'audio/webm', container: 'video' },
  'audio/ogg': { contentType: 'audio/ogg', container: 'audio' },
  'audio/opus': { contentType: 'audio/ogg', container: 'audio' },
  'audio/wav': { contentType: 'audio/wav', container: 'audio' },
  'audio/vnd.wave': { contentType: 'audio/wav', container: 'audio' },
  'audio/x-wav': { contentType: 'audio/wav', container: 'audio' },
  'audio/mpeg': { contentType: 'audio/mpeg', container: 'audio' },
  'audio/mp4': { contentType: 'audio/mp4', container: 'audio' },
  'audio/x-m4a': { contentType: 'audio/mp4', container: 'audio' },
  // Safari's MediaRecorder writes fragmented MP4, which file-type reports as video.
  'video/mp4': { contentType: 'audio/mp4', container: 'video' },
};

/**
 * Format and duration of an audio file, from its content (a client's Content-Type is not
 * trusted). null for anything that is not WebM, Ogg, WAV, MP3 or MP4/M4A audio, or that holds video.
 */
export async function probeAudio(file: string): Promise<AudioFacts | null> {
  let detected: Awaited<ReturnType<typeof fileTypeFromFile>>;
  try {
    detected = await fileTypeFromFile(file);
  } catch {
    return null;
  }
  const format = detected ? FORMATS[detected.mime.split(';')[0]!.trim()] : undefined;
  if (!format) return null;

  let duration: number | null = null;
  try {
    const metadata = await parseFile(file, { duration: true, skipCovers: true });
    if (metadata.format.hasVideo) return null;
    if (format.container === 'video' && metadata.format.hasAudio === false) return null;
    duration = usable(metadata.format.duration);
  } catch {
    // music-metadata gives up on MediaRecorder's unknown-size clusters; the walk below copes.
    // Any other damaged file is still the format its signature says, of unknown duration.
  }
  if (duration === null && format.contentType === 'audio/webm') {
    const walked = await walkWebm(file).catch(() => null);
    if (walked?.hasVideo) return null;
    duration = walked?.durationSeconds ?? null;
  }
  return { contentType: format.contentType, durationSeconds: duration };
}

function usable(seconds: number | undefined): number | null {
  return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) / 1000 : null;
}

// Matroska element ids (https://www.matroska.org/technical/elements.html).
const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const CLUSTER = 0x1f43b675;
const CLUSTER_TIMECODE = 0xe7;
const SIMPLE_BLOCK = 0xa3;
const BLOCK_GROUP = 0xa0;
const BLOCK = 0xa1;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const TRACK_TYPE = 0x83;
const VIDEO_TRACK = 1;
/** Elements whose children we read; every other element is skipped by its size. */
const DESCEND = new Set([SEGMENT, INFO, TRACKS, TRACK_ENTRY, CLUSTER, BLOCK_GROUP]);

/**
 * MediaRecorder streams WebM as it records, so the file has no Duration and its Segment and
 * Clusters have "unknown" sizes. The duration is then the last block's timestamp plus one
 * block's length (estimated from the spacing of the last two), found by walking the clusters
 * and seeking past every block's payload. The track list says whether there is video.
 */
async function walkWebm(file: string): Promise<{ durationSeconds: number | null; hasVideo: boolean }> {
  const fileHandle = await open(file, 'r');
  const handle = windowed(fileHandle);
  try {
    const size = (await handle.stat()).size;
    let position = 0;
    let timecodeScale = 1_000_000;
    let clusterTimecode = 0;
    let last = -1;
    let previous = -1;
    let hasVideo = false;
    let duration: number | null = null;
    while (position < size) {
      const element = await readElementHeader(handle, position);
      if (!element) break;
      const dataStart = position + element.headerLength;
      if (DESCEND.has(element.id)) {
        position = dataStart;
        continue;
      }
      if (element.size === null) return { durationSeconds: null, hasVideo };
      if (element.id === EBML_HEADER) {
        position = dataStart + element.size;
        continue;
      }
      if (element.id === TIMECODE_SCALE || element.id === CLUSTER_TIMECODE || element.id === TRACK_TYPE) {
        const value = await readUnsigned(handle, dataStart, element.size);
        if (element.id === TIMECODE_SCALE) timecodeScale = value;
        else if (element.id === CLUSTER_TIMECODE) clusterTimecode = value;
        else if (value === VIDEO_TRACK) hasVideo = true;
      } else if (element.id === DURATION) {
        // In ticks of TimecodeScale, which may come after it; the file is still walked for the tracks.
        const value = await readFloat(handle, dataStart, element.size);
        if (value !== null && value > 0) duration = value;
      } else if (element.id === SIMPLE_BLOCK || element.id === BLOCK) {
        const relative = await readBlockTimecode(handle, dataStart);
        if (relative === null) break;
        const at = clusterTimecode + relative;
        if (at > last) {
          previous = last;
          last = at;
        }
      }
      position = dataStart + element.size;
    }
    if (duration !== null) return { durationSeconds: usable((duration * timecodeScale) / 1e9), hasVideo };
    if (last < 0) return { durationSeconds: null, hasVideo };
    const blockLength = previous >= 0 ? last - previous : 0;
    return { durationSeconds: usable(((last + blockLength) * timecodeScale) / 1e9), hasVideo };
  } finally {
    await fileHandle.close();
  }
}

/** Reads through a 64 KiB window: a recording has tens of thousands of blocks, each a 12-byte read. */
interface Reader {
  stat(): Promise<{ size: number }>;
  readUpTo(position: number, length: number): Promise<Buffer>;
}

function windowed(handle: FileHandle): Reader {
  const WINDOW = 64 * 1024;
  let windowStart = 0;
  let window = Buffer.alloc(0);
  return {
    stat: () => handle.stat(),
    async readUpTo(position, length) {
      if (position < windowStart || position + length > windowStart + window.length) {
        const buffer = Buffer.alloc(Math.max(WINDOW, length));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        windowStart = position;
        window = buffer.subarray(0, bytesRead);
      }
      const offset = position - windowStart;
      return window.subarray(offset, Math.min(offset + length, window.length));
    },
  };
}

async function readBytes(handle: Reader, position: number, length: number): Promise<Buffer | null> {
  const buffer = await handle.readUpTo(position, length);
  return buffer.length === length ? buffer : null;
}

/** An element's id and size; size null when "unknown" (all value bits set), as live streams write it. */
async function readElementHeader(handle: Reader, position: number): Promise<{ id: number; size: number | null; headerLength: number } | null> {
  const buffer = await handle.readUpTo(position, 12);
  if (buffer.length === 0) return null;
  const idLength = vintLength(buffer[0]!);
  if (idLength === 0 || idLength > 4 || buffer.length < idLength + 1) return null;
  let id = 0;
  for (let i = 0; i < idLength; i++) id = id * 256 + buffer[i]!;
  const sizeLength = vintLength(buffer[idLength]!);
  if (sizeLength === 0 || buffer.length < idLength + sizeLength) return null;
  let size = buffer[idLength]! & (0xff >> sizeLength);
  let unknown = size === 0xff >> sizeLength;
  for (let i = 1; i < sizeLength; i++) {
    const byte = buffer[idLength + i]!;
    size = size * 256 + byte;
    if (byte !== 0xff) unknown = false;
  }
  return { id, size: unknown ? null : size, headerLength: idLength + sizeLength };
}

function vintLength(first: number): number {
  for (let length = 1; length <= 8; length++) if (first & (0x100 >> length)) return length;
  return 0;
}

async function readUnsigned(handle: Reader, position: number, size: number): Promise<number> {
  if (size < 1 || size > 8) return 0;
  const buffer = await readBytes(handle, position, size);
  if (!buffer) return 0;
  let value = 0;
  for (const byte of buffer) value = value * 256 + byte;
  return value;
}

async function readFloat(handle: Reader, position: number, size: number): Promise<number | null> {
  if (size !== 4 && size !== 8) return null;
  const buffer = await readBytes(handle, position, size);
  if (!buffer) return null;
  return size === 4 ? buffer.readFloatBE(0) : buffer.readDoubleBE(0);
}

/** A (Simple)Block starts with its track number (a vint) and a signed 16-bit timecode relative to its cluster. */
async function readBlockTimecode(handle: Reader, position: number): Promise<number | null> {
  const buffer = await handle.readUpTo(position, 10);
  const trackLength = buffer.length > 0 ? vintLength(buffer[0]!) : 0;
  if (trackLength === 0 || buffer.length < trackLength + 2) return null;
  return buffer.readInt16BE(trackLength);
}
