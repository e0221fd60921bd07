import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TScript } from '../../../shared/schemas/scripts.js';
import { loadLatestVersion, loadScript } from './load-script.js';
import { toScriptDto } from './serialize.js';

/**
 * Archived is final: the script can no longer be edited, published or picked by new campaigns.
 * Campaigns already using it keep running on its published version. Archiving twice is a no-op.
 */
export async function archiveScript(em: EntityManager, organizationId: string, scriptId: string): Promise<TScript> {
  return em.transactional(async (tx) => {
    const script = await loadScript(tx, organizationId, scriptId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (script.status !== 'archived') {
      script.status = 'archived';
      script.archivedAt = new Date();
      await tx.flush();
    }
    return toScriptDto(script, await loadLatestVersion(tx, script));
  });
}
