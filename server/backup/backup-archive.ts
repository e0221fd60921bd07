import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, chown, mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';

/**
 * A backup archive: one gzip-compressed tar (tar-stream), entries under `postgres/` (the base
 * backup), `files/` (DATA_DIR/files) and `postgres.json`, then `manifest.json` last, since it
 * holds every entry's size and SHA-256 and what the restored cluster holds.
 */

/** One entry's size and checksum as written. */
export interface ArchivedEntry {
  path: string;
  size: number;
  sha256: string;
}

/** A damaged, truncated or foreign archive: the message says what is wrong with it. */
export class BackupArchiveError extends Error {}

const CHUNK = 1024 * 1024;

export class BackupArchiveWriter {
  readonly #pack = tar.pack();
  readonly #done: Promise<void>;
  readonly entries: ArchivedEntry[] = [];

  constructor(file: string) {
    this.#done = pipeline(this.#pack, createGzip({ level: 6 }), createWriteStream(file, { mode: 0o600 }));
    // Surfaced by finish(); a write failure also makes the next entry fail.
    this.#done.catch(() => undefined);
  }

  async directory(name: string, mode: number): Promise<void> {
    await new Promise<void>((resolve, reject) => this.#pack.entry({ name, type: 'directory', mode }, (error) => (error ? reject(error) : resolve())));
  }

  /** Bytes held in memory (postgres.json, backup_label, the manifest). */
  async buffer(name: string, content: Buffer, mode = 0o600): Promise<void> {
    await new Promise<void>((resolve, reject) => this.#pack.entry({ name, mode }, content, (error) => (error ? reject(error) : resolve())));
    this.entries.push({ path: name, size: content.length, sha256: createHash('sha256').update(content).digest('hex') });
  }

  /**
   * A file that does not change while it is read (a staged copy or a hard link: storage replaces
   * files by rename), its size from the open handle. Returns its size, or undefined when it is gone.
   */
  async file(name: string, source: string, mode: number): Promise<number | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(source, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const hash = createHash('sha256');
    let size: number;
    try {
      ({ size } = await handle.stat());
      // A streamx Writable; node's Writable interface is what is used of it.
      const entry = this.#pack.entry({ name, size, mode }) as unknown as Writable;
      const written = new Promise<void>((resolve, reject) => {
        entry.once('finish', () => resolve());
        entry.once('error', reject);
      });
      const chunk = Buffer.alloc(CHUNK);
      for (let position = 0; position < size;) {
        const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK, size - position), position);
        if (bytesRead === 0) throw new Error(`${source} shrank while it was archived`);
        const bytes = Buffer.from(chunk.subarray(0, bytesRead));
        hash.update(bytes);
        position += bytesRead;
        if (!entry.write(bytes)) await new Promise<void>((resolve) => entry.once('drain', () => resolve()));
      }
      entry.end();
      await written;
    } finally {
      await handle.close();
    }
    this.entries.push({ path: name, size, sha256: hash.digest('hex') });
    return size;
  }

  async finish(): Promise<void> {
    this.#pack.finalize();
    await this.#done;
  }

  /** Stops writing after a failure; the caller removes the partial file. */
  async abort(): Promise<void> {
    this.#pack.destroy();
    await this.#done.catch(() => undefined);
  }
}

export interface ExtractTargets {
  /** Where an entry goes, or undefined to keep its bytes in memory (postgres.json, manifest.json). */
  destination(entryPath: string): string | undefined;
  /** Owner of what is written (the postgres user for the cluster's files). */
  owner(entryPath: string): { uid: number; gid: number } | undefined;
}

export interface ExtractedArchive {
  entries: Map<string, ArchivedEntry>;
  /** Entries kept in memory, by path. */
  held: Map<string, Buffer>;
}

/** Entry paths an archive may hold; anything else (absolute, `..`, links) is refused. */
function checkedEntryPath(name: string): string {
  const normal = path.posix.normalize(name).replace(/\/+$/, '');
  if (normal !== name.replace(/\/+$/, '') || path.posix.isAbsolute(normal) || normal === '..' || normal.startsWith('../') || normal === '.') {
    throw new BackupArchiveError(`the archive holds an entry outside its own tree (${JSON.stringify(name)}): not a backup of this service`);
  }
  return normal;
}

/**
 * Reads an archive: files and directories written where `targets` says, each entry's size and
 * SHA-256 computed on the way. A damaged archive (gzip's CRC, tar's header checksums, a cut
 * file) is a BackupArchiveError.
 */
export async function extractArchive(file: string, targets: ExtractTargets): Promise<ExtractedArchive> {
  const entries = new Map<string, ArchivedEntry>();
  const held = new Map<string, Buffer>();
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    // A damaged archive destroys the entry being read too; the extraction's own error reports it.
    stream.on('error', () => undefined);
    void (async () => {
      const name = checkedEntryPath(header.name);
      const destination = targets.destination(name);
      const owner = targets.owner(name);
      if (header.type === 'directory') {
        if (destination) {
          await mkdir(destination, { recursive: true, mode: header.mode ?? 0o700 });
          await chmod(destination, (header.mode ?? 0o700) & 0o777);
          if (owner) await chown(destination, owner.uid, owner.gid);
        }
        stream.resume();
        return;
      }
      if (header.type !== 'file') throw new BackupArchiveError(`the archive holds a ${header.type} entry (${name}): not a backup of this service`);
      const hash = createHash('sha256');
      let size = 0;
      const mode = (header.mode ?? 0o600) & 0o777;
      if (destination) await mkdir(path.dirname(destination), { recursive: true });
      const handle = destination ? await open(destination, 'wx', mode) : undefined;
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          hash.update(chunk);
          size += chunk.length;
          if (handle) await handle.write(chunk);
          else chunks.push(chunk);
        }
      } finally {
        await handle?.close();
      }
      if (destination) {
        await chmod(destination, mode);
        if (owner) await chown(destination, owner.uid, owner.gid);
      } else {
        held.set(name, Buffer.concat(chunks));
      }
      entries.set(name, { path: name, size, sha256: hash.digest('hex') });
    })().then(
      () => next(),
      (error: unknown) => next(error as Error),
    );
  });
  try {
    await pipeline(createReadStream(file), createGunzip(), extract);
  } catch (error) {
    if (error instanceof BackupArchiveError) throw error;
    const code = String((error as NodeJS.ErrnoException).code ?? '');
    const message = (error as Error).message;
    // zlib's data errors (a bad CRC, a cut stream) and tar-stream's (a bad header checksum, data cut short).
    if (/unexpected end of (data|file)/i.test(message)) throw new BackupArchiveError(`the archive is cut short (${message}): it was not copied whole`);
    if (/tar header/i.test(message))
      throw new BackupArchiveError('the archive is damaged: a tar header does not check out (its data was changed, or it is not a backup)');
    if (code.startsWith('Z_')) throw new BackupArchiveError(`the archive is damaged: its compressed data does not check out (${message})`);
    throw error;
  }
  return { entries, held };
}
