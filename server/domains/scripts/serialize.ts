import type { EntityManager } from '@mikro-orm/postgresql';
import type { TScript, TScriptVersion } from '../../../shared/schemas/scripts.js';
import { type Script, ScriptVersion } from '../../entities/index.js';

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

/** The newest version of each script, in one query. */
export async function loadLatestVersions(em: EntityManager, scripts: Script[]): Promise<Map<string, ScriptVersion>> {
  if (scripts.length === 0) return new Map();
  const versions = await em.find(
    ScriptVersion,
    { $or: scripts.map((script) => ({ script: script.id, version: script.latestVersion })) },
    { disableIdentityMap: true },
  );
  return new Map(versions.map((version) => [version.script.id, version]));
}

export async function toScriptDtos(em: EntityManager, scripts: Script[]): Promise<TScript[]> {
  const latest = await loadLatestVersions(em, scripts);
  return scripts.map((script) => toScriptDto(script, latest.get(script.id)!));
}
