import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import type { TSessionFile } from '../../../shared/schemas/sessions.js';
import { SessionFile } from '../../entities/index.js';
import { newId } from '../../lib/ids.js';
import { sha256OfFile } from '../../lib/sha256-file.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import type { FileStorage } from '../../storage/file-storage.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadSession } from './load-session.js';
import { toSessionFileDto } from './session-file-dto.js';

function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  return (
    base
      .replace(/[\u0000-\u001f\u007f"]/g, '')
      .trim()
      .slice(0, 200) || 'file'
  );
}

/**
 * `POST /v1/sessions/{id}/files`: an additional file of a session (a screen recording, notes),
 * of any session state. The type is recognised from the bytes where possible (a client's
 * Content-Type is not trusted), else stored as `application/octet-stream`, and always served
 * as a download. A failed insert removes the stored bytes again.
 */
export async function uploadSessionFile(
  { em, services }: Pick<Deps, 'em'> & { services: { storage: FileStorage; signer: UrlSigner } },
  caller: Caller,
  input: { sessionId: string; originalName: string; uploadedFile: string },
): Promise<TSessionFile> {
  const { organizationId } = caller;
  const session = await loadSession(em, caller, input);
  const detected = await fileTypeFromFile(input.uploadedFile).catch(() => undefined);
  const id = newId('fil');
  const storageKey = `sessions/${organizationId}/${session.id}/${id}`;
  const sha256 = await sha256OfFile(input.uploadedFile);
  const size = (await stat(input.uploadedFile)).size;
  await services.storage.put(storageKey, createReadStream(input.uploadedFile));
  try {
    const file = em.create(SessionFile, {
      id,
      organization: organizationId,
      session,
      kind: 'upload',
      name: sanitizeFilename(input.originalName),
      contentType: detected?.mime ?? 'application/octet-stream',
      sizeBytes: size,
      durationSeconds: null,
      sha256,
      storageKey,
    });
    await em.flush();
    return toSessionFileDto(file, services.signer);
  } catch (error) {
    await services.storage.delete(storageKey);
    throw error;
  }
}
