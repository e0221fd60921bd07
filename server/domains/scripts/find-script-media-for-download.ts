import type { EntityManager } from '@mikro-orm/postgresql';
import { ScriptMedia } from '../../entities/index.js';

/** For the signed-link download route: the record behind a verified token. */
export async function findScriptMediaForDownload(em: EntityManager, mediaId: string): Promise<ScriptMedia | null> {
  return em.findOne(ScriptMedia, { id: mediaId, script: { deletedAt: null } });
}
