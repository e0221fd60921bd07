import type { TScript } from '../../../shared/schemas/scripts.js';
import { loadLatestVersion, loadScript } from './load-script.js';
import { toScriptDto } from './serialize.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/** The script at its newest version (a draft while one is open), with all questions. */
export async function getScript({ em }: Pick<Deps, 'em'>, caller: Caller, input: { scriptId: string }): Promise<TScript> {
  const { scriptId } = input;
  const script = await loadScript(em, caller, { scriptId });
  return toScriptDto(script, await loadLatestVersion(em, script));
}
