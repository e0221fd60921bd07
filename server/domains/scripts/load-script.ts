import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Script, ScriptVersion } from '../../entities/index.js';
import { AppError, notFound } from '../../errors.js';

/** The organization's (not deleted) script or 404; `fieldPath` names the body field it came from. */
export async function loadScript(
  em: EntityManager,
  organizationId: string,
  scriptId: string,
  options: { fieldPath?: string; lockMode?: LockMode } = {},
): Promise<Script> {
  const script = await em.findOne(
    Script,
    { id: scriptId, organization: organizationId, deletedAt: null },
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
