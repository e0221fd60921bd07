import { createHash, randomBytes } from 'node:crypto';
import { createServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileNotFoundError, type FileStorage } from '../../server/storage/file-storage.js';
import { LocalDiskStorage } from '../../server/storage/local-disk-storage.js';
import { parseS3Url, S3Storage } from '../../server/storage/s3-storage.js';
import { wav } from '../helpers/audio.js';
import { apiAs, createScript } from '../helpers/factories.js';
import { lastJsonLine, runAdmin, waitFor } from '../helpers/processes.js';
import { S3RVER_CREDENTIALS, startTestS3, type TestS3 } from '../helpers/s3.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Files in an S3-compatible bucket (`STORAGE_URL`): the storage contract against a real S3
 * protocol server, the service on it (uploads land in the bucket, not on disk; signed links
 * stream them, with byte ranges), and `admin copy-files` moving a disk's files there, verified.
 */
let s3: TestS3;

beforeAll(async () => {
  s3 = await startTestS3();
  // The SDK's standard credential chain reads these, in this process and in the CLI's.
  Object.assign(process.env, S3RVER_CREDENTIALS);
});
afterAll(() => s3?.close());

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysOf(storage: FileStorage, prefix?: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of storage.list(prefix)) keys.push(key);
  return keys.sort();
}

describe('STORAGE_URL', () => {
  it('is parsed into bucket, prefix, region, endpoint and path style; anything else is refused', () => {
    expect(parseS3Url('s3://media/prod/files?region=eu-west-1&endpoint=https%3A%2F%2Fs3.example.com&forcePathStyle=true')).toEqual({
      bucket: 'media',
      prefix: 'prod/files/',
      region: 'eu-west-1',
      endpoint: 'https://s3.example.com',
      forcePathStyle: true,
    });
    expect(parseS3Url('s3://media')).toMatchObject({ bucket: 'media', prefix: '', endpoint: undefined, forcePathStyle: false });
    expect(() => parseS3Url('https://media/x')).toThrow(/s3:\/\/bucket/);
    expect(() => parseS3Url('s3://media?acl=public')).toThrow(/unknown parameter acl/);
    expect(() => parseS3Url('s3://media?endpoint=ftp://x')).toThrow(/endpoint/);
  });
});

describe('S3Storage against an S3 protocol server', () => {
  let storage: S3Storage;
  beforeAll(() => {
    storage = new S3Storage(parseS3Url(s3.storageUrl('contract')));
  });
  afterAll(() => storage?.close());

  it('streams a 12 MB file up in parts, and back whole or by range', async () => {
    const data = randomBytes(12 * 1024 * 1024);
    // Chunks that do not line up with the 5 MB parts.
    const source = Readable.from([data.subarray(0, 3_000_000), data.subarray(3_000_000, 9_000_000), data.subarray(9_000_000)]);
    expect(await storage.put('sessions/org/ses/big.bin', source)).toEqual({ size: data.length });
    const back = await bytesOf(await storage.open('sessions/org/ses/big.bin'));
    expect(createHash('sha256').update(back).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    expect(
      (await bytesOf(await storage.open('sessions/org/ses/big.bin', { start: 5_242_870, end: 5_242_889 }))).equals(data.subarray(5_242_870, 5_242_890)),
    ).toBe(true);
  });

  it('replaces, lists under a prefix, deletes idempotently, and says when a file is absent', async () => {
    await storage.put('media/org/a.txt', Readable.from([Buffer.from('first')]));
    await storage.put('media/org/a.txt', Readable.from([Buffer.from('second')]));
    await storage.put('media/org/b.txt', Readable.from([Buffer.alloc(0)]));
    expect((await bytesOf(await storage.open('media/org/a.txt'))).toString()).toBe('second');
    expect(await keysOf(storage, 'media/')).toEqual(['media/org/a.txt', 'media/org/b.txt']);
    await storage.delete('media/org/a.txt');
    await storage.delete('media/org/a.txt');
    await expect(storage.open('media/org/a.txt')).rejects.toBeInstanceOf(FileNotFoundError);
    await expect(storage.put('../escape', Readable.from([Buffer.from('x')]))).rejects.toThrow(/Invalid storage key/);
  });

  it('touch marks a file used now (its LastModified), content unchanged; an absent key is no error', async () => {
    await storage.put('tts-cache/aa/turn.ogg', Readable.from([Buffer.from('OggS spoken')]));
    const modifiedAt = async () => {
      for await (const file of storage.list('tts-cache/')) if (file.key === 'tts-cache/aa/turn.ogg') return file.modifiedAt.getTime();
      throw new Error('not listed');
    };
    const before = await modifiedAt();
    // LastModified counts whole seconds.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await storage.touch('tts-cache/aa/turn.ogg');
    expect(await modifiedAt()).toBeGreaterThan(before);
    expect((await bytesOf(await storage.open('tts-cache/aa/turn.ogg'))).toString()).toBe('OggS spoken');
    await storage.touch('tts-cache/aa/absent.ogg');
    await expect(storage.open('tts-cache/aa/absent.ogg')).rejects.toBeInstanceOf(FileNotFoundError);
  });

  it('a source that fails mid-upload stores nothing and reports the failure', async () => {
    const failing = Readable.from(
      (async function* () {
        yield randomBytes(6 * 1024 * 1024);
        throw new Error('disk read failed');
      })(),
    );
    await expect(storage.put('media/org/broken.bin', failing)).rejects.toThrow();
    await expect(storage.open('media/org/broken.bin')).rejects.toBeInstanceOf(FileNotFoundError);
  });
});

describe.each(['local disk', 'S3'] as const)('the service on %s: uploads and signed links with byte ranges', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(backend === 'S3' ? { STORAGE_URL: s3.storageUrl('service') } : {});
  });
  afterAll(() => t?.close());

  it('stores an upload where configured, and serves it whole, in ranges, and 416 past its end', async () => {
    const tenant = await t.createTenant();
    const api = apiAs(t.http, tenant);
    const script = await createScript(api);
    const audio = wav(1.5);
    const uploaded = await t.http
      .post(`/v1/scripts/${script.id}/media`)
      .set('Authorization', tenant.authorization)
      .attach('file', audio, 'intro.wav')
      .expect(201);
    const [row] = await t.em().execute<{ storage_key: string }[]>('select storage_key from script_media where id = ?', [uploaded.body.id]);
    const onDisk = await readdir(path.join(t.dataDir, 'files'), { recursive: true }).catch(() => []);
    if (backend === 'S3') {
      expect(onDisk).toEqual([]);
      expect(await keysOf(new S3Storage(parseS3Url(s3.storageUrl('service'))))).toContain(row!.storage_key);
    } else {
      expect(onDisk).toContain(row!.storage_key.split('/').join(path.sep));
    }

    const link = new URL(uploaded.body.url).pathname;
    const read = (range?: string) => {
      const request = t.http
        .get(link)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      return range ? request.set('Range', range) : request;
    };
    const whole = await read();
    expect(whole.status).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect((whole.body as Buffer).equals(audio)).toBe(true);

    const middle = await read('bytes=44-143');
    expect(middle.status).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes 44-143/${audio.length}`);
    expect(middle.headers['content-length']).toBe('100');
    expect((middle.body as Buffer).equals(audio.subarray(44, 144))).toBe(true);

    const tail = await read('bytes=-10');
    expect(tail.status).toBe(206);
    expect((tail.body as Buffer).equals(audio.subarray(audio.length - 10))).toBe(true);
    const open = await read(`bytes=${audio.length - 5}-`);
    expect(open.headers['content-range']).toBe(`bytes ${audio.length - 5}-${audio.length - 1}/${audio.length}`);

    const beyond = await read(`bytes=${audio.length}-`);
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${audio.length}`);
    // Several ranges, or another unit: the whole file is a valid answer.
    expect((await read('bytes=0-1,5-6')).status).toBe(200);
  });

  it('a download the client gives up closes its source (no S3 connection or file left open)', async () => {
    const tenant = await t.createTenant();
    const script = await createScript(apiAs(t.http, tenant));
    const uploaded = await t.http
      .post(`/v1/scripts/${script.id}/media`)
      .set('Authorization', tenant.authorization)
      .attach('file', wav(60), 'long.wav')
      .expect(201);
    const storage = t.runtime.services.storage;
    const opened: Readable[] = [];
    // A recording that never ends: only the service closing it stops it.
    t.runtime.services.storage = {
      put: (key, content) => storage.put(key, content),
      open: async () => {
        const stream = new Readable({
          read() {
            this.push(Buffer.alloc(64 * 1024));
          },
        });
        opened.push(stream);
        return stream;
      },
      delete: (key) => storage.delete(key),
      touch: (key) => storage.touch(key),
      list: (prefix) => storage.list(prefix),
    };
    const server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${new URL(uploaded.body.url).pathname}`;
      await new Promise<void>((resolve, reject) => {
        const request = httpGet(url, (response) => {
          response.once('data', () => {
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      });
      await waitFor(
        async () => (opened[0]?.destroyed ? true : undefined),
        5_000,
        () => 'the source stream was left open',
      );
    } finally {
      t.runtime.services.storage = storage;
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('admin copy-files', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'copy-files-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('copies DATA_DIR/files to the bucket, verifies every copy, and a second run finds them all there', async () => {
    const local = new LocalDiskStorage(path.join(dataDir, 'files'));
    const files = {
      'media/org_1/a.png': randomBytes(2000),
      'sessions/org_1/ses_1/answer.webm': randomBytes(7 * 1024 * 1024),
      'sessions/org_2/ses_9/empty.txt': Buffer.alloc(0),
    };
    for (const [key, content] of Object.entries(files)) await local.put(key, Readable.from([content]));
    const env = { DATA_DIR: dataDir, ...S3RVER_CREDENTIALS };
    const to = s3.storageUrl('migrated');

    const first = await runAdmin(['copy-files', '--to', to, '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(lastJsonLine(first.stdout)).toMatchObject({ copied: 3, alreadyThere: 0, bytes: 2000 + 7 * 1024 * 1024, mismatched: [] });
    const bucket = new S3Storage(parseS3Url(to));
    for (const [key, content] of Object.entries(files)) expect((await bytesOf(await bucket.open(key))).equals(content)).toBe(true);

    const again = await runAdmin(['copy-files', '--to', to, '--json'], env);
    expect(lastJsonLine(again.stdout)).toMatchObject({ copied: 0, alreadyThere: 3, mismatched: [] });

    // A copy that was changed in the bucket is copied again.
    await bucket.put('media/org_1/a.png', Readable.from([Buffer.from('tampered')]));
    const repaired = await runAdmin(['copy-files', '--to', to, '--json'], env);
    expect(lastJsonLine(repaired.stdout)).toMatchObject({ copied: 1, alreadyThere: 2 });
    expect((await bytesOf(await bucket.open('media/org_1/a.png'))).equals(files['media/org_1/a.png'])).toBe(true);
    bucket.close();
  }, 120_000);

  it('a --to that is not an S3 URL is a usage error (exit 2)', async () => {
    const result = await runAdmin(['copy-files', '--to', 'https://bucket/x'], { DATA_DIR: dataDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--to: STORAGE_URL must look like s3://bucket/prefix');
  }, 60_000);
});
