import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TScriptMedia } from '../../../shared/schemas/scripts.js';
import { ScriptMedia } from '../../entities/index.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import { pageOf } from '../pagination.js';
import { loadScript } from './load-script.js';
import { toScriptMediaDto } from './script-media-dto.js';

export async function listScriptMedia(
  em: EntityManager,
  signer: UrlSigner,
  organizationId: string,
  input: { scriptId: string; limit: number; offset: number },
): Promise<Page<TScriptMedia>> {
  const script = await loadScript(em, organizationId, input.scriptId);
  const [media, total] = await em.findAndCount(
    ScriptMedia,
    { script: script.id },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: input.limit, offset: input.offset, disableIdentityMap: true },
  );
  return pageOf(await Promise.all(media.map((item) => toScriptMediaDto(item, signer))), total, input.limit, input.offset);
}
