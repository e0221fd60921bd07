import type { TScript, TScriptVersion } from '../../../shared/schemas/scripts.js';
import type { Script, ScriptVersion } from '../../entities/index.js';

export function toScriptDto(script: Script, latest: ScriptVersion): TScript {
  return {
    id: script.id,
    name: script.name,
    description: script.description ?? null,
    projectId: script.project?.id ?? null,
    systemPrompt: latest.systemPrompt,
    questions: latest.questions,
    settings: latest.settings,
    status: script.status,
    version: latest.version,
    publishedVersion: script.publishedVersion ?? null,
    createdAt: script.createdAt.toISOString(),
    updatedAt: script.updatedAt.toISOString(),
    publishedAt: script.publishedAt?.toISOString() ?? null,
  };
}

export function toScriptVersionDto(scriptId: string, version: ScriptVersion): TScriptVersion {
  return {
    scriptId,
    version: version.version,
    status: version.status,
    changelog: version.changelog ?? null,
    systemPrompt: version.systemPrompt,
    questions: version.questions,
    settings: version.settings,
    createdAt: version.createdAt.toISOString(),
    publishedAt: version.publishedAt?.toISOString() ?? null,
  };
}
