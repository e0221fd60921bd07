import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TListSessionFilesInput, TSessionFile } from '../../../shared/schemas/sessions.js';
import { SessionFile } from '../../entities/index.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import { findPage, NEWEST_FIRST, pageFrom } from '../common/keyset-page.js';
import { loadSession } from './load-session.js';
import { toSessionFileDto } from './session-file-dto.js';

/** A session's files, oldest first (answers in the order they were given), with signed links, in the pagination envelope. */
export async function listSessionFiles(em: EntityManager, signer: UrlSigner, organizationId: string, input: TListSessionFilesInput): Promise<Page<TSessionFile>> {
  const session = await loadSession(em, organizationId, input.sessionId);
  const page = await findPage(em, SessionFile, { session: session.id }, input, { ...NEWEST_FIRST, direction: 'asc' }, { disableIdentityMap: true });
  return pageFrom(page, await Promise.all(page.items.map((file) => toSessionFileDto(file, signer))));
}
