import type { Readable } from 'node:stream';

/**
 * Where files (script media; later audio, uploads, exports) live. The local-disk backend is the
 * default; an S3-compatible backend is the scale-out option and implements the same interface.
 */
export interface FileStorage {
  /** Stores the stream under `key`, replacing any previous content atomically. */
  put(key: string, content: Readable): Promise<{ size: number }>;
  /** Opens the stored content; rejects with FileNotFoundError when absent. */
  open(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
}

export class FileNotFoundError extends Error {
  constructor(key: string) {
    super(`No stored file under ${key}`);
  }
}
