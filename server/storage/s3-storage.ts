import { PassThrough, Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertStorageKey, type ByteRange, FileNotFoundError, type FileStorage, type StoredFile } from './file-storage.js';

/** Where in which store: parsed from `STORAGE_URL=s3://bucket/prefix?region=…&endpoint=…&forcePathStyle=true`. */
export interface S3Location {
  bucket: string;
  /** Key prefix inside the bucket ('' or ending in '/'). */
  prefix: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, R2, Ceph…); unset: AWS. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
}

export function parseS3Url(value: string): S3Location {
  const url = new URL(value);
  if (url.protocol !== 's3:' || !url.hostname) throw new Error('STORAGE_URL must look like s3://bucket/prefix?region=…');
  const unknown = [...url.searchParams.keys()].filter((name) => !['region', 'endpoint', 'forcePathStyle'].includes(name));
  if (unknown.length > 0) throw new Error(`STORAGE_URL: unknown parameter ${unknown.join(', ')} (region, endpoint and forcePathStyle are read)`);
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\//.test(endpoint)) throw new Error('STORAGE_URL: endpoint must be an http(s) URL');
  const forcePathStyle = url.searchParams.get('forcePathStyle');
  if (forcePathStyle !== null && forcePathStyle !== 'true' && forcePathStyle !== 'false') throw new Error('STORAGE_URL: forcePathStyle is true or false');
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  return {
    bucket: url.hostname,
    prefix: prefix ? `${prefix}/` : '',
    region: url.searchParams.get('region') ?? process.env.AWS_REGION ?? 'us-east-1',
    endpoint,
    forcePathStyle: forcePathStyle === 'true',
  };
}

/** Parts of a multipart upload: S3's minimum; with two in flight, an upload holds about 10 MB whatever the file's size. */
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

function isNotFound(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}

/**
 * Files in an S3-compatible bucket, with the local disk's semantics: `put` streams a multipart
 * upload (an object appears whole or not at all), `open` streams the object or a range of it,
 * `delete` is idempotent. Credentials come from the standard AWS chain (AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, a profile, an instance role). Checksums are sent and checked only where
 * the operation requires them: the SDK's default (a CRC trailer on every upload) is not
 * understood by many S3-compatible stores.
 */
export class S3Storage implements FileStorage {
  readonly #client: S3Client;
  readonly #location: S3Location;

  constructor(location: S3Location, overrides: Partial<S3ClientConfig> = {}) {
    this.#location = location;
    this.#client = new S3Client({
      region: location.region,
      endpoint: location.endpoint,
      forcePathStyle: location.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...overrides,
    });
  }

  #keyOf(key: string): string {
    assertStorageKey(key);
    return this.#location.prefix + key;
  }

  async put(key: string, content: Readable): Promise<{ size: number }> {
    let size = 0;
    const counted = new PassThrough();
    counted.on('data', (chunk: Buffer) => (size += chunk.length));
    content.on('error', (error) => counted.destroy(error));
    content.pipe(counted);
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#location.bucket, Key: this.#keyOf(key), Body: counted },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // Nothing reads the source any more: let go of it (an open file, an upload in progress).
      content.destroy();
      counted.destroy();
      throw error;
    }
    return { size };
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const object = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#location.bucket, Key: this.#keyOf(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      if (!(object.Body instanceof Readable)) throw new Error(`S3 answered no readable body for ${key}`);
      return object.Body;
    } catch (error) {
      if (isNotFound(error)) throw new FileNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#location.bucket, Key: this.#keyOf(key) }));
  }

  /**
   * An object's LastModified changes only when it is written: it is read and written back whole.
   * Meant for the small files it is used on (spoken turns, stored under keys named by their
   * content): a self-copy (CopyObject with MetadataDirective REPLACE) would save the transfer on
   * AWS, but S3-compatible stores differ in whether it counts as a write.
   */
  async touch(key: string): Promise<void> {
    let content: Readable;
    try {
      content = await this.open(key);
    } catch (error) {
      if (error instanceof FileNotFoundError) return;
      throw error;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of content) chunks.push(chunk as Buffer);
    await this.put(key, Readable.from([Buffer.concat(chunks)]));
  }

  async *list(prefix = ''): AsyncIterable<StoredFile> {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.#client.send(
        new ListObjectsV2Command({ Bucket: this.#location.bucket, Prefix: this.#location.prefix + prefix, ContinuationToken }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key.slice(this.#location.prefix.length), size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date() };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  close(): void {
    this.#client.destroy();
  }
}
