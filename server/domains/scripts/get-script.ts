import type { EntityManager } from '@mikro-orm/postgresql';
import type { TScript } from '../../../shared/schemas/scripts.js';
import { loadLatestVersion, loadScript } from './load-script.js';
import { toScriptDto } from './serialize.js';

/** The script at its newest version (a draft while one is open), with all questions. */
export async function getScript(em: EntityManager, organizationId: string, scriptId: string): Promise<TScript> {
  const script = await loadScript(em, organizationId, scriptId);
  return toScriptDto(script, await loadLatestVersion(em, script));
}
