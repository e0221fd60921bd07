import { deleteFileRecord } from '../../backup/file-deletion-lock.js';
import { ScriptMedia } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { FileStorage } from '../../storage/file-storage.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadScript } from './load-script.js';

/** Removes the record, then the stored bytes (a leftover file is harmless; a dangling record is not); in step with backups. */
export async function deleteScriptMedia(
  { em, services }: Pick<Deps, 'em'> & { services: { storage: FileStorage } },
  caller: Caller,
  input: { scriptId: string; mediaId: string },
): Promise<void> {
  const { storage } = services;
  const script = await loadScript(em, caller, { scriptId: input.scriptId });
  const media = await em.findOne(ScriptMedia, { id: input.mediaId, script: script.id, organization: caller.organizationId });
  if (!media) throw notFound('media', input.mediaId);
  await deleteFileRecord(em, async (tx) => {
    await tx.nativeDelete(ScriptMedia, { id: media.id });
  });
  await storage.delete(media.storageKey);
}
