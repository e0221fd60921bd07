import { LockMode } from '@mikro-orm/core';
import type { TScript } from '../../../shared/schemas/scripts.js';
import { assertNotArchived, loadLatestVersion, loadScript } from './load-script.js';
import { toScriptDto } from './serialize.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/** Publishes the newest version; publishing an already published newest version changes nothing. */
export async function publishScript({ em }: Pick<Deps, 'em'>, caller: Caller, input: { scriptId: string }): Promise<TScript> {
  const { scriptId } = input;
  return em.transactional(async (tx) => {
    const script = await loadScript(tx, caller, { scriptId, lockMode: LockMode.PESSIMISTIC_WRITE });
    assertNotArchived(script);
    const latest = await loadLatestVersion(tx, script);
    if (latest.status === 'draft') {
      const now = new Date();
      latest.status = 'published';
      latest.publishedAt = now;
      script.status = 'published';
      script.publishedVersion = latest.version;
      script.publishedAt = now;
      await tx.flush();
    }
    return toScriptDto(script, latest);
  });
}
