import { LockMode } from '@mikro-orm/core';
import type { TScript } from '../../../shared/schemas/scripts.js';
import { loadLatestVersion, loadScript } from './load-script.js';
import { toScriptDto } from './serialize.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/**
 * Archived is final: the script can no longer be edited, published or picked by new campaigns.
 * Campaigns already using it keep running on its published version. Archiving twice is a no-op.
 */
export async function archiveScript({ em }: Pick<Deps, 'em'>, caller: Caller, input: { scriptId: string }): Promise<TScript> {
  const { scriptId } = input;
  return em.transactional(async (tx) => {
    const script = await loadScript(tx, caller, { scriptId, lockMode: LockMode.PESSIMISTIC_WRITE });
    if (script.status !== 'archived') {
      script.status = 'archived';
      script.archivedAt = new Date();
      await tx.flush();
    }
    return toScriptDto(script, await loadLatestVersion(tx, script));
  });
}
