import type { Page } from '../../../shared/schemas/common.js';
import type { TScriptVersion } from '../../../shared/schemas/scripts.js';
import { ScriptVersion } from '../../entities/index.js';
import { findPage, type KeysetSort, type PageRequest, pageFrom } from '../common/keyset-page.js';

const NEWEST_VERSION_FIRST: KeysetSort = { property: 'version', column: 'version', type: 'integer', direction: 'desc' };
import { loadScript } from './load-script.js';
import { toScriptVersionDto } from './serialize.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/** Every version, newest first. */
export async function listScriptVersions({ em }: Pick<Deps, 'em'>, caller: Caller, input: { scriptId: string } & PageRequest): Promise<Page<TScriptVersion>> {
  const script = await loadScript(em, caller, { scriptId: input.scriptId });
  const page = await findPage(em, ScriptVersion, { script: script.id }, input, NEWEST_VERSION_FIRST, { disableIdentityMap: true });
  return pageFrom(
    page,
    page.items.map((version) => toScriptVersionDto(script.id, version)),
  );
}
