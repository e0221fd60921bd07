import { SCRIPT_EXPORT_FORMAT, SCRIPT_EXPORT_FORMAT_VERSION, type TScriptExport } from '../../../shared/schemas/scripts.js';
import { loadLatestVersion, loadScript } from './load-script.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/** The newest version in the portable format that import accepts unchanged. */
export async function exportScript({ em }: Pick<Deps, 'em'>, caller: Caller, input: { scriptId: string }): Promise<TScriptExport> {
  const { scriptId } = input;
  const script = await loadScript(em, caller, { scriptId });
  const latest = await loadLatestVersion(em, script);
  return {
    format: SCRIPT_EXPORT_FORMAT,
    formatVersion: SCRIPT_EXPORT_FORMAT_VERSION,
    exportedAt: new Date().toISOString(),
    source: { scriptId: script.id, version: latest.version },
    script: {
      name: script.name,
      description: script.description ?? null,
      systemPrompt: latest.systemPrompt,
      questions: latest.questions,
      settings: latest.settings,
    },
  };
}
