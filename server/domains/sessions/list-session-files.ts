import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSessionFile } from '../../../shared/schemas/sessions.js';
import { SessionFile } from '../../entities/index.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import { loadSession } from './load-session.js';
import { toSessionFileDto } from './session-file-dto.js';

/** Every file of a session, oldest first (answers in the order they were given), with signed links. */
export async function listSessionFiles(em: EntityManager, signer: UrlSigner, organizationId: string, sessionId: string): Promise<{ data: TSessionFile[] }> {
  const session = await loadSession(em, organizationId, sessionId);
  const files = await em.find(SessionFile, { session: session.id }, { orderBy: { createdAt: 'asc', id: 'asc' }, disableIdentityMap: true });
  return { data: await Promise.all(files.map((file) => toSessionFileDto(file, signer))) };
}
