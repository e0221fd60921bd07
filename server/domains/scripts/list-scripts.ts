import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TListScriptsInput, TScript } from '../../../shared/schemas/scripts.js';
import { Script, ScriptVersion } from '../../entities/index.js';
import { containsPattern } from '../common/pagination.js';
import { findPage, pageFrom } from '../common/keyset-page.js';
import { toScriptDto } from './serialize.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

export async function listScripts({ em }: Pick<Deps, 'em'>, caller: Caller, input: TListScriptsInput): Promise<Page<TScript>> {
  const { organizationId } = caller;
  const where: FilterQuery<Script> = {
    organization: organizationId,
    deletedAt: null,
    ...(input.projectId ? { project: input.projectId } : {}),
    ...(input.status ? { status: input.status } : {}),
    ...(input.search ? { name: { $ilike: containsPattern(input.search) } } : {}),
  };
  // Read-only page: skipping the identity map skips change-tracking snapshots (bench/api.ts).
  const page = await findPage(em, Script, where, input, undefined, { disableIdentityMap: true });
  return pageFrom(page, await toScriptDtos(em, page.items));
}

/** The newest version of each script, in one query. */
async function loadLatestVersions(em: EntityManager, scripts: Script[]): Promise<Map<string, ScriptVersion>> {
  if (scripts.length === 0) return new Map();
  const versions = await em.find(
    ScriptVersion,
    { $or: scripts.map((script) => ({ script: script.id, version: script.latestVersion })) },
    { disableIdentityMap: true },
  );
  return new Map(versions.map((version) => [version.script.id, version]));
}

async function toScriptDtos(em: EntityManager, scripts: Script[]): Promise<TScript[]> {
  const latest = await loadLatestVersions(em, scripts);
  return scripts.map((script) => toScriptDto(script, latest.get(script.id)!));
}
