import { LockMode } from '@mikro-orm/core';
import type { TScript, TUpdateScriptInput } from '../../../shared/schemas/scripts.js';
import { applyMergePatch } from '../../lib/merge-patch.js';
import { assertKnownVoice } from '../../speech/speech-synthesizer.js';
import type { Caller } from '../common/caller.js';
import { loadProjectForAssignment } from '../projects/index.js';
import { assertNotArchived, loadLatestVersion, loadScript } from './load-script.js';
import { normalizeQuestions } from './questions.js';
import type { ScriptWriteDeps } from './create-script.js';
import { toScriptDto } from './serialize.js';
import { openDraftVersion } from './open-draft-version.js';

/**
 * name, description and projectId change in place. Versioned content (systemPrompt, questions,
 * settings) edits the open draft, or, when the newest version is published, opens version n+1
 * as a draft so the published version that campaigns use never changes.
 */
export async function updateScript({ em, services }: ScriptWriteDeps, caller: Caller, input: TUpdateScriptInput): Promise<TScript> {
  assertKnownVoice(services.synthesis.synthesizer, input.settings?.voice, 'settings.voice');
  return em.transactional(async (tx) => {
    // Lock order: project, then script (deleteProject locks the project, then its scripts).
    await loadScript(tx, caller, { scriptId: input.scriptId });
    const project =
      input.projectId === undefined || input.projectId === null ? input.projectId : await loadProjectForAssignment(tx, caller, { projectId: input.projectId });
    const script = await loadScript(tx, caller, { scriptId: input.scriptId, lockMode: LockMode.PESSIMISTIC_WRITE });
    assertNotArchived(script);
    if (input.name !== undefined) script.name = input.name;
    if (input.description !== undefined) script.description = input.description;
    if (project !== undefined) script.project = project;

    let latest = await loadLatestVersion(tx, script);
    const changesContent = input.systemPrompt !== undefined || input.questions !== undefined || input.settings !== undefined;
    if (changesContent) {
      if (latest.status === 'published') latest = openDraftVersion(tx, script, latest, null);
      if (input.systemPrompt !== undefined) latest.systemPrompt = input.systemPrompt;
      if (input.questions !== undefined) latest.questions = normalizeQuestions(input.questions);
      if (input.settings !== undefined) latest.settings = applyMergePatch(latest.settings, input.settings);
    }
    // Content lives in the version row; the script's updatedAt still says the script changed.
    if (changesContent) script.updatedAt = new Date();
    await tx.flush();
    return toScriptDto(script, latest);
  });
}
