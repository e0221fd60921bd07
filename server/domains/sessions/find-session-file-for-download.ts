import type { Deps } from '../common/deps.js';
import { SessionFile } from '../../entities/index.js';

/** For the signed-link download route: the record behind a verified token. */
export async function findSessionFileForDownload({ em }: Pick<Deps, 'em'>, { fileId }: { fileId: string }): Promise<SessionFile | null> {
  return em.findOne(SessionFile, { id: fileId });
}
