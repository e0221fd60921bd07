import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TScriptVersion } from '../../../shared/schemas/scripts.js';
import { ScriptVersion } from '../../entities/index.js';
import { pageOf } from '../pagination.js';
import { loadScript } from './load-script.js';
import { toScriptVersionDto } from './serialize.js';

/** Every version, newest first. */
export async function listScriptVersions(
  em: EntityManager,
  organizationId: string,
  input: { scriptId: string; limit: number; offset: number },
): Promise<Page<TScriptVersion>> {
  const script = await loadScript(em, organizationId, input.scriptId);
  const [versions, total] = await em.findAndCount(
    ScriptVersion,
    { script: script.id },
    { orderBy: { version: 'desc' }, limit: input.limit, offset: input.offset, disableIdentityMap: true },
  );
  return pageOf(
    versions.map((version) => toScriptVersionDto(script.id, version)),
    total,
    input.limit,
    input.offset,
  );
}
