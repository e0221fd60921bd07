import { LockMode } from '@mikro-orm/core';
import { Campaign } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { loadScript } from './load-script.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/**
 * Refused (409 SCRIPT_IN_USE) while an active or paused campaign uses the script: a paused
 * campaign can resume at any time. Otherwise the script disappears from the API; its row and
 * versions stay so archived campaigns' sessions keep their pinned version.
 */
export async function deleteScript({ em }: Pick<Deps, 'em'>, caller: Caller, input: { scriptId: string }): Promise<void> {
  const { scriptId } = input;
  await em.transactional(async (tx) => {
    const script = await loadScript(tx, caller, { scriptId, lockMode: LockMode.PESSIMISTIC_WRITE });
    const users = await tx.find(
      Campaign,
      // Its own hidden preview campaign does not keep a script in use.
      { script: script.id, preview: false, status: { $in: ['active', 'paused'] } },
      { fields: ['id'], limit: 10, orderBy: { createdAt: 'asc' } },
    );
    if (users.length > 0) {
      throw new AppError(
        'SCRIPT_IN_USE',
        `Script ${script.id} is used by ${users.length === 10 ? 'at least 10' : users.length} active or paused campaign(s); archive them first.`,
        {
          scriptId: script.id,
          campaignIds: users.map((campaign) => campaign.id),
        },
      );
    }
    script.deletedAt = new Date();
    await tx.flush();
  });
}
