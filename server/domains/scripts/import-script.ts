import type { TImportScriptInput, TScript } from '../../../shared/schemas/scripts.js';
import type { Caller } from '../common/caller.js';
import { insertScript, type ScriptWriteDeps } from './create-script.js';

/** An export becomes a new draft script (version 1) in the caller's organization. */
export async function importScript({ em, services }: ScriptWriteDeps, caller: Caller, input: TImportScriptInput): Promise<TScript> {
  return insertScript(em, caller, {
    script: {
      name: input.script.name,
      description: input.script.description ?? null,
      projectId: input.projectId ?? null,
      systemPrompt: input.script.systemPrompt,
      questions: input.script.questions,
      settings: input.script.settings,
    },
    synthesizer: services.synthesis.synthesizer,
    settingsPath: 'script.settings',
  });
}
