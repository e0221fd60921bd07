import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey, type ByteRange, FileNotFoundError, type FileStorage, type StoredFile } from './file-storage.js';

/**
 * Files under `<DATA_DIR>/files/<key>`; writes go to a temporary name first, then rename. Only
 * this service's user may read them (directories 0700, files 0600): DATA_DIR itself may be
 * traversable by the embedded PostgreSQL's user, and these hold participants' recordings.
 */
export class LocalDiskStorage implements FileStorage {
  readonly #root: string;

  constructor(root: string) {
    this.#root = path.resolve(root);
  }

  #pathOf(key: string): string {
    assertStorageKey(key);
    return path.join(this.#root, key);
  }

  async put(key: string, content: Readable): Promise<{ size: number }> {
    const target = this.#pathOf(key);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await pipeline(content, createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { size: (await stat(target)).size };
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.#pathOf(key);
    try {
      await stat(file);
    } catch {
      throw new FileNotFoundError(key);
    }
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    await rm(this.#pathOf(key), { force: true });
  }

  async touch(key: string): Promise<void> {
    const now = new Date();
    await utimes(this.#pathOf(key), now, now).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  async *list(prefix = ''): AsyncIterable<StoredFile> {
    const entries = await readdir(this.#root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.endsWith('.partial')) continue;
      const key = path.relative(this.#root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (!key.startsWith(prefix)) continue;
      const facts = await stat(path.join(this.#root, key)).catch(() => undefined);
      // Deleted since the directory was read.
      if (facts) yield { key, size: facts.size, modifiedAt: facts.mtime };
    }
  }
}
