import type { Readable } from 'node:stream';

/** Inclusive byte range, as HTTP's `Range: bytes=start-end` names it. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredFile {
  key: string;
  size: number;
  modifiedAt: Date;
}

/**
 * Where files (script media, session audio, uploads, exports) live: the local disk by default
 * (`LocalDiskStorage`), or an S3-compatible object store (`S3Storage`, `STORAGE_URL=s3://…`)
 * when API and worker processes run on several hosts. Keys are relative paths such as
 * `sessions/<org>/<session>/<file>`; both backends take the same ones.
 */
export interface FileStorage {
  /** Stores the stream under `key`, replacing any previous content atomically; streamed, whatever its size. */
  put(key: string, content: Readable): Promise<{ size: number }>;
  /** Opens the stored content (or one range of it); rejects with FileNotFoundError when absent. */
  open(key: string, range?: ByteRange): Promise<Readable>;
  delete(key: string): Promise<void>;
  /**
   * Marks the file as used now (its `modifiedAt` in `list`), content unchanged; nothing when it is
   * absent. For files whose content never changes under their key (spoken turns): S3 rewrites it.
   */
  touch(key: string): Promise<void>;
  /** Every stored key under a prefix (for copying between backends and sweeps); streamed in pages. */
  list(prefix?: string): AsyncIterable<StoredFile>;
}

export class FileNotFoundError extends Error {
  constructor(key: string) {
    super(`No stored file under ${key}`);
  }
}

/** Storage keys are relative paths of safe segments: no `..`, no absolute paths, no odd characters. */
export function assertStorageKey(key: string): void {
  if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Invalid storage key: ${key}`);
  }
}
