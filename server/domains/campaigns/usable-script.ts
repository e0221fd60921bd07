import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Script } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import type { OrganizationScope } from '../common/caller.js';
import { loadScript } from '../scripts/index.js';

/**
 * A script a campaign may use: the organization's, not archived, with a published version. The
 * row is share-locked so a concurrent delete cannot slip between this check and the write.
 */
export async function loadUsableScript(em: EntityManager, scope: OrganizationScope, input: { scriptId: string }): Promise<Script> {
  const script = await loadScript(em, scope, { scriptId: input.scriptId, fieldPath: 'scriptId', lockMode: LockMode.PESSIMISTIC_READ });
  if (script.status === 'archived') {
    throw new AppError('SCRIPT_ARCHIVED', `Script ${script.id} is archived; campaigns cannot start using it.`, {
      scriptId: script.id,
      fields: [{ path: 'scriptId', message: 'is archived' }],
    });
  }
  if (script.publishedVersion === null || script.publishedVersion === undefined) {
    throw new AppError('SCRIPT_NOT_PUBLISHED', `Script ${script.id} has no published version; publish it first.`, {
      scriptId: script.id,
      fields: [{ path: 'scriptId', message: 'has no published version' }],
    });
  }
  return script;
}
