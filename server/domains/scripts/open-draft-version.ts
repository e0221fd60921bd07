import type { EntityManager } from '@mikro-orm/postgresql';
import { type Script, ScriptVersion } from '../../entities/index.js';

/** Version n+1 as a draft, starting as a copy of `from`; the script's status follows its newest version. */
export function openDraftVersion(em: EntityManager, script: Script, from: ScriptVersion, changelog: string | null): ScriptVersion {
  const draft = em.create(ScriptVersion, {
    id: crypto.randomUUID(),
    script,
    version: script.latestVersion + 1,
    status: 'draft',
    changelog,
    systemPrompt: from.systemPrompt,
    questions: from.questions,
    settings: from.settings,
    publishedAt: null,
  });
  script.latestVersion = draft.version;
  script.status = 'draft';
  return draft;
}
