import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCreateScriptInput, TScript } from '../../../shared/schemas/scripts.js';
import { Script, ScriptVersion } from '../../entities/index.js';
import { newId } from '../../lib/ids.js';
import { assertKnownVoice, type SpeechSynthesizer } from '../../speech/speech-synthesizer.js';
import { loadProjectForAssignment } from '../projects/index.js';
import { normalizeQuestions } from './questions.js';
import { toScriptDto } from './serialize.js';

/** A new script is a draft at version 1. Its `settings.voice`, when set, must be a voice of the server's speech synthesis (422). */
export async function createScript(
  em: EntityManager,
  organizationId: string,
  input: TCreateScriptInput,
  /** The server's speech synthesis: `settings.voice` must be one of its voices (any name without one: the browser's). */
  synthesizer: Pick<SpeechSynthesizer, 'voices' | 'name'> | null,
  /** Where the settings were in the caller's request (an import nests them under `script`). */
  settingsPath = 'settings',
): Promise<TScript> {
  assertKnownVoice(synthesizer, input.settings?.voice, `${settingsPath}.voice`);
  return em.transactional(async (tx) => {
    const project = input.projectId ? await loadProjectForAssignment(tx, { organizationId }, { projectId: input.projectId }) : null;
    const script = tx.create(Script, {
      id: newId('scr'),
      organization: organizationId,
      project,
      name: input.name,
      description: input.description ?? null,
      status: 'draft',
      latestVersion: 1,
      publishedVersion: null,
      publishedAt: null,
      archivedAt: null,
      deletedAt: null,
    });
    const version = tx.create(ScriptVersion, {
      id: crypto.randomUUID(),
      script,
      version: 1,
      status: 'draft',
      changelog: null,
      systemPrompt: input.systemPrompt,
      questions: normalizeQuestions(input.questions),
      settings: input.settings ?? {},
      publishedAt: null,
    });
    await tx.flush();
    return toScriptDto(script, version);
  });
}
