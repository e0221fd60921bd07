import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FileStorage } from './file-storage.js';

export interface CopyReport {
  /** Files written to the destination by this run. */
  copied: number;
  /** Files the destination already held with the same content (an earlier, interrupted run). */
  alreadyThere: number;
  bytes: number;
  /** Keys whose content read back from the destination differs from the source's. */
  mismatched: string[];
}

async function sha256Of(stream: Readable): Promise<{ digest: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { digest: hash.digest('hex'), size };
}

/**
 * Copies every file of one storage to another (the local disk to an S3 bucket when a service
 * moves to several hosts) and proves each copy: the destination's content is read back and its
 * SHA-256 compared with the source's. Files already there with the same content are left alone,
 * so an interrupted run is simply run again. One file at a time, streamed: memory stays flat.
 */
export async function copyFiles(
  from: FileStorage,
  to: FileStorage,
  onFile?: (key: string, outcome: 'copied' | 'already_there' | 'mismatched') => void,
): Promise<CopyReport> {
  const existing = new Map<string, number>();
  for await (const { key, size } of to.list()) existing.set(key, size);
  const report: CopyReport = { copied: 0, alreadyThere: 0, bytes: 0, mismatched: [] };
  for await (const { key, size } of from.list()) {
    const source = await sha256Of(await from.open(key));
    const present = existing.get(key) === size && (await sha256Of(await to.open(key))).digest === source.digest;
    let outcome: 'copied' | 'already_there' | 'mismatched';
    if (present) {
      outcome = 'already_there';
      report.alreadyThere++;
    } else {
      await to.put(key, await from.open(key));
      const copy = await sha256Of(await to.open(key));
      outcome = copy.digest === source.digest ? 'copied' : 'mismatched';
      if (outcome === 'copied') {
        report.copied++;
        report.bytes += source.size;
      } else {
        report.mismatched.push(key);
      }
    }
    onFile?.(key, outcome);
  }
  return report;
}
