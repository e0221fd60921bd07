import { LockMode } from '@mikro-orm/core';
import type { TCreateScriptPreviewInput, TScriptPreview } from '../../../shared/schemas/scripts.js';
import { Organization, ScriptVersion } from '../../entities/index.js';
import { AppError, validationError } from '../../errors.js';
import type { AppServices } from '../../services.js';
import { upsertPreviewCampaign } from '../campaigns/index.js';
import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadScript } from '../scripts/index.js';
import { insertInvites } from './insert-invites.js';

/** A preview link is for trying the script now: it lasts a day, not a campaign's week. */
const PREVIEW_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * "Preview as participant": a fresh invite (no email) on the script's hidden preview campaign,
 * made on first use and reused after, and the real interview page's URL for it. The invite pins
 * the version asked for, default the newest (the draft when there is one), so a draft can be
 * tried before it is published. Sessions on it are marked `preview`: no credits, no webhooks,
 * and left out of results, exports, searches and usage.
 *
 * It lives with invites (above scripts and campaigns) because it makes a campaign and an invite;
 * the procedure stays `scripts.createPreview`, mounted there by server/trpc/app-router.ts.
 */
export async function createScriptPreview(
  { em, services }: Pick<Deps, 'em'> & { services: Pick<AppServices, 'inviteTokens' | 'links' | 'emailTemplates'> },
  caller: CustomerAuth,
  input: TCreateScriptPreviewInput,
): Promise<TScriptPreview> {
  const { organizationId } = caller;
  return em.transactional(async (tx) => {
    // Share-locked: a delete or archive waits until the preview exists.
    const script = await loadScript(tx, caller, { scriptId: input.scriptId, lockMode: LockMode.PESSIMISTIC_READ });
    if (script.status === 'archived') {
      throw new AppError('SCRIPT_ARCHIVED', `Script ${script.id} is archived; it cannot be previewed.`, { scriptId: script.id });
    }
    const version = input.version ?? script.latestVersion;
    const exists = await tx.count(ScriptVersion, { script: script.id, version });
    if (exists === 0) {
      throw validationError([{ path: 'version', message: `script ${script.id} has no version ${version}` }]);
    }
    // One preview campaign per script (a partial unique index): a concurrent first preview shares
    // it. Its name and the title participants see follow the script's name as it is now.
    const campaign = await upsertPreviewCampaign.first(tx, { organizationId, scriptId: script.id, scriptName: script.name });
    if (!campaign) throw new Error(`Script ${script.id} has no preview campaign after creating it`);
    const expiresAt = new Date(Date.now() + PREVIEW_LIFETIME_MS);
    const [invite] = await insertInvites(tx, services, { id: campaign.id, organizationId, status: 'active', inviteDefaults: {} }, [{ email: null }], {
      sendEmail: false,
      expiresAt: expiresAt.toISOString(),
      scriptVersion: version,
    });
    const organization = await tx.findOneOrFail(Organization, organizationId, { fields: ['domain'] });
    return {
      url: services.links.inviteUrl({ domain: organization.domain ?? null }, services.inviteTokens.tokenFor(invite!.id)),
      expiresAt: expiresAt.toISOString(),
      version,
    };
  });
}
