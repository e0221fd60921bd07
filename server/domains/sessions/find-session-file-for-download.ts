import type { EntityManager } from '@mikro-orm/postgresql';
import { SessionFile } from '../../entities/index.js';

/** For the signed-link download route: the record behind a verified token. */
export async function findSessionFileForDownload(em: EntityManager, fileId: string): Promise<SessionFile | null> {
  return em.findOne(SessionFile, { id: fileId });
}
