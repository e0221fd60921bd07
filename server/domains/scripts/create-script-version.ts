import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCreateScriptVersionInput, TScript } from '../../../shared/schemas/scripts.js';
import { applyMergePatch } from '../../lib/merge-patch.js';
import { assertKnownVoice, type SpeechSynthesizer } from '../../speech/speech-synthesizer.js';
import { assertNotArchived, loadLatestVersion, loadScript } from './load-script.js';
import { openDraftVersion } from './open-draft-version.js';
import { normalizeQuestions } from './questions.js';
import { toScriptDto } from './serialize.js';

/** Always opens version n+1 as a draft; omitted fields are copied from the newest version. */
export async function createScriptVersion(
  em: EntityManager,
  organizationId: string,
  input: TCreateScriptVersionInput,
  /** The server's speech synthesis: `settings.voice` must be one of its voices (any name without one: the browser's). */
  synthesizer: Pick<SpeechSynthesizer, 'voices' | 'name'> | null,
): Promise<TScript> {
  assertKnownVoice(synthesizer, input.settings?.voice, 'settings.voice');
  return em.transactional(async (tx) => {
    const script = await loadScript(tx, organizationId, input.scriptId, { lockMode: LockMode.PESSIMISTIC_WRITE });
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
