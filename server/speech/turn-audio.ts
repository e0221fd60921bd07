import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import type { Logger } from '../logger.js';
import { FileNotFoundError, type FileStorage } from '../storage/file-storage.js';
import type { SpeechSynthesizer } from './speech-synthesizer.js';

/**
 * Where spoken turns are kept; no record names them, so the orphan sweep (records only) leaves them
 * be: the cache prune (pruneTurnAudio) deletes those not used for TTS_CACHE_MAX_AGE_DAYS.
 */
export const TURN_AUDIO_PREFIX = 'tts-cache/';

/** A cached turn served again is marked used at most this often: the prune counts in days. */
const TOUCH_INTERVAL_MS = 3600 * 1000;
/** Keys remembered as touched; forgotten all at once beyond this (a touch too many is harmless). */
const MAX_REMEMBERED_TOUCHES = 10_000;

/** A turn longer than this is not kept in memory while it is made (nor cached); it still streams. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface TurnAudioRequest {
  text: string;
  voice: string;
  language: string;
}

/**
 * One synthesis in progress: every byte made so far, and the listeners that get the next ones.
 * A request that arrives meanwhile joins it (gets what was made, then the rest) instead of
 * starting a second process or provider request.
 */
class Flight {
  readonly chunks: Buffer[] = [];
  bytes = 0;
  ended = false;
  failed: Error | null = null;
  private readonly listeners = new Set<PassThrough>();

  constructor(source: Readable, onDone: (flight: Flight) => void) {
    source.on('data', (chunk: Buffer) => {
      this.bytes += chunk.length;
      if (this.bytes <= MAX_BUFFERED_BYTES) this.chunks.push(chunk);
      for (const listener of this.listeners) listener.write(chunk);
    });
    source.once('end', () => {
      this.ended = true;
      for (const listener of this.listeners) listener.end();
      this.listeners.clear();
      onDone(this);
    });
    source.once('error', (error) => {
      this.failed = error;
      for (const listener of this.listeners) listener.destroy(error);
      this.listeners.clear();
      onDone(this);
    });
  }

  /** A stream of the whole audio: what was made so far at once, the rest as it comes. */
  listen(): Readable {
    const listener = new PassThrough();
    if (this.failed) {
      listener.destroy(this.failed);
      return listener;
    }
    for (const chunk of this.chunks) listener.write(chunk);
    if (this.ended) listener.end();
    else {
      this.listeners.add(listener);
      // A listener that goes away (player closed) stops getting bytes; synthesis goes on for the cache.
      listener.once('close', () => this.listeners.delete(listener));
    }
    return listener;
  }

  get complete(): boolean {
    return this.ended && this.bytes <= MAX_BUFFERED_BYTES;
  }
}

/**
 * The AI's turns as audio: from the cache when this (text, voice, language) was spoken before,
 * else from the synthesizer, streamed while it is made and kept in storage once complete.
 */
export class TurnAudio {
  private readonly flights = new Map<string, Promise<Flight>>();
  private readonly touched = new Map<string, number>();

  constructor(
    readonly synthesizer: SpeechSynthesizer,
    private readonly storage: FileStorage,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  get contentType(): string {
    return this.synthesizer.contentType;
  }

  /** The storage key of a spoken turn; the synthesizer's scope keeps configurations apart. */
  cacheKey(request: TurnAudioRequest): string {
    const hash = createHash('sha256')
      .update(JSON.stringify([this.synthesizer.cacheScope, request.voice, request.language.toLowerCase(), request.text]))
      .digest('hex');
    return `${TURN_AUDIO_PREFIX}${hash.slice(0, 2)}/${hash}.${this.synthesizer.contentType === 'audio/mpeg' ? 'mp3' : 'ogg'}`;
  }

  /**
   * The audio, as a stream that may still be growing. Rejects with SpeechSynthesisError when
   * synthesis cannot start; a failure part-way errors the stream (and nothing is cached).
   */
  async open(request: TurnAudioRequest): Promise<{ stream: Readable; cached: boolean }> {
    const key = this.cacheKey(request);
    let flight = this.flights.get(key);
    if (!flight) {
      try {
        const stream = await this.storage.open(key);
        this.markUsed(key);
        return { stream, cached: true };
      } catch (error) {
        if (!(error instanceof FileNotFoundError)) throw error;
      }
      // Checked again: another request may have started it while storage was asked.
      flight = this.flights.get(key);
      if (!flight) {
        flight = this.start(key, request);
        this.flights.set(key, flight);
        flight.catch(() => this.flights.delete(key));
      }
    }
    return { stream: (await flight).listen(), cached: false };
  }

  /** Keeps a cached turn from the prune while it is used; in the background (a storage write), never holding up the audio. */
  private markUsed(key: string): void {
    const now = Date.now();
    if (now - (this.touched.get(key) ?? 0) < TOUCH_INTERVAL_MS) return;
    if (this.touched.size >= MAX_REMEMBERED_TOUCHES) this.touched.clear();
    this.touched.set(key, now);
    this.storage.touch(key).catch((error: unknown) => this.logger.warn({ err: error }, 'spoken turn could not be marked as used'));
  }

  private async start(key: string, request: TurnAudioRequest): Promise<Flight> {
    const source = await this.synthesizer.synthesize(request);
    return new Flight(source, (flight) => void this.settle(key, flight));
  }

  /** Keeps complete audio, then lets the flight go (a request meanwhile still joins it, complete). */
  private async settle(key: string, flight: Flight): Promise<void> {
    try {
      if (flight.complete && flight.bytes > 0) await this.storage.put(key, Readable.from([Buffer.concat(flight.chunks)]));
      else if (flight.failed) this.logger.warn({ err: flight.failed }, 'text-to-speech failed part-way; nothing cached');
    } catch (error) {
      this.logger.warn({ err: error }, 'spoken turn could not be cached');
    } finally {
      this.flights.delete(key);
    }
  }
}
