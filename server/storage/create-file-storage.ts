import path from 'node:path';
import type { Config } from '../config.js';
import type { FileStorage } from './file-storage.js';
import { LocalDiskStorage } from './local-disk-storage.js';
import { S3Storage } from './s3-storage.js';

/** The configured backend: the bucket of `STORAGE_URL`, else `DATA_DIR/files`. */
export function createFileStorage(config: Pick<Config, 'storage' | 'dataDir'>): FileStorage {
  return config.storage.kind === 's3' ? new S3Storage(config.storage.location) : new LocalDiskStorage(path.join(config.dataDir, 'files'));
}
