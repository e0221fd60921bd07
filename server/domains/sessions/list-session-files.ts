import type { Page } from '../../../shared/schemas/common.js';
import type { TListSessionFilesInput, TSessionFile } from '../../../shared/schemas/sessions.js';
import { SessionFile } from '../../entities/index.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { findPage, NEWEST_FIRST, pageFrom } from '../common/keyset-page.js';
import { loadSession } from './load-session.js';
import { toSessionFileDto } from './session-file-dto.js';

/** A session's files, oldest first (answers in the order they were given), with signed links, in the pagination envelope. */
export async function listSessionFiles(
  { em, services }: Pick<Deps, 'em'> & { services: { signer: UrlSigner } },
  caller: Caller,
  input: TListSessionFilesInput,
): Promise<Page<TSessionFile>> {
  const session = await loadSession(em, caller, input);
  const page = await findPage(em, SessionFile, { session: session.id }, input, { ...NEWEST_FIRST, direction: 'asc' }, { disableIdentityMap: true });
  return pageFrom(page, await Promise.all(page.items.map((file) => toSessionFileDto(file, services.signer))));
}
