import { LockMode } from '@mikro-orm/core';
import type { TCreateScriptVersionInput, TScript } from '../../../shared/schemas/scripts.js';
import { applyMergePatch } from '../../lib/merge-patch.js';
import { assertKnownVoice } from '../../speech/speech-synthesizer.js';
import type { Caller } from '../common/caller.js';
import { assertNotArchived, loadLatestVersion, loadScript } from './load-script.js';
import { openDraftVersion } from './open-draft-version.js';
import { normalizeQuestions } from './questions.js';
import type { ScriptWriteDeps } from './create-script.js';
import { toScriptDto } from './serialize.js';

/** Always opens version n+1 as a draft; omitted fields are copied from the newest version. */
export async function createScriptVersion({ em, services }: ScriptWriteDeps, caller: Caller, input: TCreateScriptVersionInput): Promise<TScript> {
  assertKnownVoice(services.synthesis.synthesizer, input.settings?.voice, 'settings.voice');
  return em.transactional(async (tx) => {
    const script = await loadScript(tx, caller, { scriptId: input.scriptId, lockMode: LockMode.PESSIMISTIC_WRITE });
    assertNotArchived(script);
    const draft = openDraftVersion(tx, script, await loadLatestVersion(tx, script), input.changelog ?? null);
    if (input.systemPrompt !== undefined) draft.systemPrompt = input.systemPrompt;
    if (input.questions !== undefined) draft.questions = normalizeQuestions(input.questions);
    if (input.settings !== undefined) draft.settings = applyMergePatch(draft.settings, input.settings);
    script.updatedAt = new Date();
    await tx.flush();
    return toScriptDto(script, draft);
  });
}
