import type { TScriptVersion } from '../../../shared/schemas/scripts.js';
import { ScriptVersion } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { loadScript } from './load-script.js';
import { toScriptVersionDto } from './serialize.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

export async function getScriptVersion({ em }: Pick<Deps, 'em'>, caller: Caller, input: { scriptId: string; version: number }): Promise<TScriptVersion> {
  const script = await loadScript(em, caller, { scriptId: input.scriptId });
  const version = await em.findOne(ScriptVersion, { script: script.id, version: input.version });
  if (!version) throw notFound('scriptVersion', `${script.id} version ${input.version}`);
  return toScriptVersionDto(script.id, version);
}
