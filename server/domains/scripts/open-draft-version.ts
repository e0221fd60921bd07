import type { EntityManager } from '@mikro-orm/postgresql';
import { type Script, ScriptVersion } from '../../entities/index.js';

/**
 * Version n+1 as a draft, starting as a copy of `from`. A script that has a published version
 * stays `published` (campaigns can use it); the open draft shows as `version > publishedVersion`.
 */
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
  if (script.publishedVersion === null || script.publishedVersion === undefined) script.status = 'draft';
  return draft;
}
