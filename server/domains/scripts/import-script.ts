import type { EntityManager } from '@mikro-orm/postgresql';
import type { TImportScriptInput, TScript } from '../../../shared/schemas/scripts.js';
import { createScript } from './create-script.js';

/** An export becomes a new draft script (version 1) in the caller's organization. */
export async function importScript(em: EntityManager, organizationId: string, input: TImportScriptInput): Promise<TScript> {
  return createScript(em, organizationId, {
    name: input.script.name,
    description: input.script.description ?? null,
    projectId: input.projectId ?? null,
    systemPrompt: input.script.systemPrompt,
    questions: input.script.questions,
    settings: input.script.settings,
  });
}
