import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** SHA-256 (hex) of a file, streamed: memory stays flat whatever the file's size. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
