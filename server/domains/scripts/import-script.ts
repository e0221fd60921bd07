import type { EntityManager } from '@mikro-orm/postgresql';
import type { TImportScriptInput, TScript } from '../../../shared/schemas/scripts.js';
import type { SpeechSynthesizer } from '../../speech/speech-synthesizer.js';
import { createScript } from './create-script.js';

/** An export becomes a new draft script (version 1) in the caller's organization. */
export async function importScript(
  em: EntityManager,
  organizationId: string,
  input: TImportScriptInput,
  /** The server's speech synthesis: `settings.voice` must be one of its voices (any name without one: the browser's). */
  synthesizer: Pick<SpeechSynthesizer, 'voices' | 'name'> | null,
): Promise<TScript> {
  return createScript(
    em,
    organizationId,
    {
      name: input.script.name,
      description: input.script.description ?? null,
      projectId: input.projectId ?? null,
      systemPrompt: input.script.systemPrompt,
      questions: input.script.questions,
      settings: input.script.settings,
    },
    synthesizer,
    'script.settings',
  );
}
