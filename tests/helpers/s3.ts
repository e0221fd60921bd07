import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver's fixed credentials (it checks the signature made with them, as S3 does). */
export const S3RVER_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' } as const;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** A STORAGE_URL for this server, under `prefix`. */
  storageUrl(prefix?: string): string;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver: signatures, multipart uploads, ranges, listings) on
 * loopback, with one bucket, its objects in a temporary directory.
 */
export async function startTestS3(bucket = 'interviews'): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    storageUrl: (prefix = '') => `s3://${bucket}/${prefix}?region=us-east-1&endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true`,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
