import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Script, ScriptVersion } from '../../entities/index.js';
import { AppError, notFound } from '../../errors.js';
import type { OrganizationScope } from '../common/caller.js';

export interface LoadScriptInput {
  scriptId: string;
  /** The body field the id came from, named in the 404. */
  fieldPath?: string;
  lockMode?: LockMode;
}

/** The scope's organization's (not deleted) script or 404. */
export async function loadScript(em: EntityManager, scope: OrganizationScope, input: LoadScriptInput): Promise<Script> {
  const { scriptId, ...options } = input;
  const script = await em.findOne(
    Script,
    { id: scriptId, organization: scope.organizationId, deletedAt: null },
    // A locking read refreshes what an earlier plain read of this transaction put in the identity map.
    options.lockMode ? { lockMode: options.lockMode, refresh: true } : {},
  );
  if (!script) throw notFound('script', scriptId, options.fieldPath);
  return script;
}

export async function loadLatestVersion(em: EntityManager, script: Script): Promise<ScriptVersion> {
  const version = await em.findOne(ScriptVersion, { script: script.id, version: script.latestVersion });
  if (!version) throw new Error(`Script ${script.id} has no version ${script.latestVersion}`);
  return version;
}

export function assertNotArchived(script: Script): void {
  if (script.status === 'archived') {
    throw new AppError('SCRIPT_ARCHIVED', `Script ${script.id} is archived and cannot be changed.`, { scriptId: script.id });
  }
}
