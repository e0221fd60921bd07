import type { Page } from '../../../shared/schemas/common.js';
import type { TScriptMedia } from '../../../shared/schemas/scripts.js';
import { ScriptMedia } from '../../entities/index.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import { findPage, type PageRequest, pageFrom } from '../common/keyset-page.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadScript } from './load-script.js';
import { toScriptMediaDto } from './script-media-dto.js';

export async function listScriptMedia(
  { em, services }: Pick<Deps, 'em'> & { services: { signer: UrlSigner } },
  caller: Caller,
  input: { scriptId: string } & PageRequest,
): Promise<Page<TScriptMedia>> {
  const { signer } = services;
  const script = await loadScript(em, caller, { scriptId: input.scriptId });
  const page = await findPage(em, ScriptMedia, { script: script.id }, input, undefined, { disableIdentityMap: true });
  return pageFrom(page, await Promise.all(page.items.map((item) => toScriptMediaDto(item, signer))));
}
