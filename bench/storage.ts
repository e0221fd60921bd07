/**
 * `npm run bench:storage`: files through the storage interface, on the local disk and on an
 * S3-compatible server (s3rver, in a process of its own so its memory is not counted here).
 * For uploads of 16, 64 and 256 MB (`--sizes`, in MB): time, MB/s, and the peak resident memory
 * of this process above what it held before the upload (sampled every 10 ms): flat, whatever the
 * file's size, is the aim. Then ranged reads of 64 KB at random offsets (what an audio player's
 * seeking asks), p50 and p95. Figures go to bench/results/storage.json.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { findFreePort } from '../server/db/embedded-postgres.js';
import type { FileStorage } from '../server/storage/file-storage.js';
import { LocalDiskStorage } from '../server/storage/local-disk-storage.js';
import { parseS3Url, S3Storage } from '../server/storage/s3-storage.js';
import { percentile } from './helpers/stats.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
const CHUNK = randomBytes(1024 * 1024);

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '16,64,256' }, reads: { type: 'string', default: '200' } } });
const sizes = values.sizes.split(',').map((size) => {
  const mb = Number(size);
  if (!Number.isInteger(mb) || mb < 1) throw new Error('--sizes takes whole megabytes, comma-separated');
  return mb;
});
const reads = Number(values.reads);

async function startS3rver(): Promise<{ url: string; stop: () => Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'bench-s3rver-'));
  const port = await findFreePort();
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 's3rver', 'bin', 's3rver.js'),
      '-d',
      directory,
      '-a',
      '127.0.0.1',
      '-p',
      String(port),
      '--silent',
      '--configure-bucket',
      'bench',
    ],
    {
      stdio: 'ignore',
    },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (
      await fetch(endpoint).then(
        () => true,
        () => false,
      )
    )
      break;
    if (tries > 100) throw new Error('s3rver did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `s3://bench/files?region=us-east-1&endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true`,
    stop: async () => {
      child.kill('SIGTERM');
      await rm(directory, { recursive: true, force: true });
    },
  };
}

async function upload(storage: FileStorage, megabytes: number) {
  let sent = 0;
  const source = new Readable({
    read() {
      this.push(sent++ < megabytes ? CHUNK : null);
    },
  });
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  await storage.put(`sessions/bench/${megabytes}mb.bin`, source);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return {
    megabytes,
    seconds: Number(seconds.toFixed(2)),
    mbPerSecond: Number((megabytes / seconds).toFixed(1)),
    peakAboveBeforeMb: Number(((peak - before) / 1e6).toFixed(1)),
  };
}

async function rangedReads(storage: FileStorage, megabytes: number) {
  const size = megabytes * 1024 * 1024;
  const times: number[] = [];
  for (let i = 0; i < reads; i++) {
    const start = randomInt(0, size - 65_536);
    const began = performance.now();
    let bytes = 0;
    for await (const chunk of await storage.open(`sessions/bench/${megabytes}mb.bin`, { start, end: start + 65_535 })) bytes += (chunk as Buffer).length;
    if (bytes !== 65_536) throw new Error(`a ranged read gave ${bytes} bytes`);
    times.push(performance.now() - began);
  }
  return { reads, p50Ms: Number(percentile(times, 50).toFixed(2)), p95Ms: Number(percentile(times, 95).toFixed(2)) };
}

async function measure(name: string, storage: FileStorage) {
  const uploads = [];
  for (const megabytes of sizes) uploads.push(await upload(storage, megabytes));
  return { backend: name, uploads, rangedReads: await rangedReads(storage, sizes[0]!) };
}

const diskDir = await mkdtemp(path.join(tmpdir(), 'bench-disk-'));
const s3 = await startS3rver();
const s3Storage = new S3Storage(parseS3Url(s3.url));
process.env.AWS_ACCESS_KEY_ID ??= 'S3RVER';
process.env.AWS_SECRET_ACCESS_KEY ??= 'S3RVER';
try {
  const results = [await measure('local disk', new LocalDiskStorage(diskDir)), await measure('S3 (s3rver)', s3Storage)];
  console.log(`node ${process.version}; peak RSS above the process's before each upload (10 ms samples)`);
  console.log('backend          size MB   seconds    MB/s   peak above before (MB)');
  for (const result of results) {
    for (const row of result.uploads) {
      console.log(
        `${result.backend.padEnd(16)} ${String(row.megabytes).padStart(7)} ${String(row.seconds).padStart(9)} ${String(row.mbPerSecond).padStart(7)} ${String(row.peakAboveBeforeMb).padStart(12)}`,
      );
    }
  }
  for (const result of results)
    console.log(`${result.backend}: ${result.rangedReads.reads} ranged reads of 64 KB, p50 ${result.rangedReads.p50Ms} ms, p95 ${result.rangedReads.p95Ms} ms`);
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(path.join(RESULTS_DIR, 'storage.json'), `${JSON.stringify({ node: process.version, at: new Date().toISOString(), results }, null, 2)}\n`);
} finally {
  s3Storage.close();
  await s3.stop();
  await rm(diskDir, { recursive: true, force: true });
}
