import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TScriptVersion } from '../../../shared/schemas/scripts.js';
import { ScriptVersion } from '../../entities/index.js';
import { findPage, type KeysetSort, type PageRequest, pageFrom } from '../common/keyset-page.js';

const NEWEST_VERSION_FIRST: KeysetSort = { property: 'version', column: 'version', type: 'integer', direction: 'desc' };
import { loadScript } from './load-script.js';
import { toScriptVersionDto } from './serialize.js';

/** Every version, newest first. */
export async function listScriptVersions(
  em: EntityManager,
  organizationId: string,
  input: { scriptId: string } & PageRequest,
): Promise<Page<TScriptVersion>> {
  const script = await loadScript(em, organizationId, input.scriptId);
  const page = await findPage(em, ScriptVersion, { script: script.id }, input, NEWEST_VERSION_FIRST, { disableIdentityMap: true });
  return pageFrom(
    page,
    page.items.map((version) => toScriptVersionDto(script.id, version)),
  );
}
