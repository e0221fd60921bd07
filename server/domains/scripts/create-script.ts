import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCreateScriptInput, TScript } from '../../../shared/schemas/scripts.js';
import { Script, ScriptVersion } from '../../entities/index.js';
import { newId } from '../../lib/ids.js';
import { assertKnownVoice, type SpeechSynthesizer } from '../../speech/speech-synthesizer.js';
import type { Caller, OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadProjectForAssignment } from '../projects/index.js';
import { normalizeQuestions } from './questions.js';
import { toScriptDto } from './serialize.js';

/**
 * What writes of a script's settings need: the unit of work, and the server's speech synthesis
 * (`settings.voice` must be one of its voices; any name without one: the browser's).
 */
export type ScriptWriteDeps = Pick<Deps, 'em'> & { services: { synthesis: { synthesizer: Pick<SpeechSynthesizer, 'voices' | 'name'> | null } } };

/** A new script is a draft at version 1. Its `settings.voice`, when set, must be a voice of the server's speech synthesis (422). */
export async function createScript({ em, services }: ScriptWriteDeps, caller: Caller, input: TCreateScriptInput): Promise<TScript> {
  return insertScript(em, caller, { script: input, synthesizer: services.synthesis.synthesizer, settingsPath: 'settings' });
}

/** `settingsPath`: where the settings were in the caller's request (an import nests them under `script`). */
export async function insertScript(
  em: EntityManager,
  scope: OrganizationScope,
  {
    script: input,
    synthesizer,
    settingsPath,
  }: { script: TCreateScriptInput; synthesizer: Pick<SpeechSynthesizer, 'voices' | 'name'> | null; settingsPath: string },
): Promise<TScript> {
  const { organizationId } = scope;
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
