import { ScriptMedia } from '../../entities/index.js';
import type { Deps } from '../common/deps.js';

/** For the signed-link download route: the record behind a verified token. No caller: the signed link is its own credential. */
export async function findScriptMediaForDownload({ em }: Pick<Deps, 'em'>, { mediaId }: { mediaId: string }): Promise<ScriptMedia | null> {
  return em.findOne(ScriptMedia, { id: mediaId, script: { deletedAt: null } });
}
