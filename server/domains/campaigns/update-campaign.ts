import { LockMode } from '@mikro-orm/core';
import type { TCampaign, TUpdateCampaignInput } from '../../../shared/schemas/campaigns.js';
import { METADATA_LIMITS, ZMetadata } from '../../../shared/schemas/common.js';
import { validationError } from '../../errors.js';
import { applyMergePatch } from '../../lib/merge-patch.js';
import { assertKnownVoice } from '../../speech/speech-synthesizer.js';
import type { Caller } from '../common/caller.js';
import { assertKnownEmailTemplate } from './invite-options.js';
import { loadProjectForAssignment } from '../projects/index.js';
import { assertCampaignNotArchived, loadCampaign } from './load-campaign.js';
import type { CampaignWriteDeps } from './create-campaign.js';
import { getCampaign } from './get-campaign.js';
import { loadUsableScript } from './usable-script.js';

/**
 * Partial update. settings, inviteDefaults and metadata are merge patches (RFC 7386) of the
 * stored objects. Archived campaigns are final (409 CAMPAIGN_ARCHIVED).
 *
 * Rows are locked in the service-wide order project, script, campaign (deleteProject locks the
 * project and then its campaigns), so concurrent updates and deletes never deadlock.
 */
export async function updateCampaign({ em, services }: CampaignWriteDeps, caller: Caller, input: TUpdateCampaignInput): Promise<TCampaign> {
  assertKnownEmailTemplate(services.emailTemplates, input.inviteDefaults?.emailTemplate, 'inviteDefaults.emailTemplate');
  assertKnownVoice(services.synthesis.synthesizer, input.settings?.voice, 'settings.voice');
  return em.transactional(async (tx) => {
    const current = await loadCampaign(tx, caller, { campaignId: input.campaignId });
    const project =
      input.projectId === undefined || input.projectId === null ? input.projectId : await loadProjectForAssignment(tx, caller, { projectId: input.projectId });
    const script =
      input.scriptId !== undefined && input.scriptId !== current.script.id ? await loadUsableScript(tx, caller, { scriptId: input.scriptId }) : undefined;
    const campaign = await loadCampaign(tx, caller, { campaignId: input.campaignId, lockMode: LockMode.PESSIMISTIC_WRITE });
    assertCampaignNotArchived(campaign);
    if (input.name !== undefined) campaign.name = input.name;
    if (input.participantTitle !== undefined) campaign.participantTitle = input.participantTitle;
    if (input.description !== undefined) campaign.description = input.description;
    if (script) campaign.script = script;
    if (project !== undefined) campaign.project = project;
    if (input.settings !== undefined) campaign.settings = applyMergePatch(campaign.settings, input.settings);
    if (input.inviteDefaults !== undefined) campaign.inviteDefaults = applyMergePatch(campaign.inviteDefaults, input.inviteDefaults);
    if (input.metadata !== undefined) {
      const merged = applyMergePatch(campaign.metadata, input.metadata);
      if (!ZMetadata.safeParse(merged).success) {
        throw validationError([
          { path: 'metadata', message: `merged metadata must have at most ${METADATA_LIMITS.maxKeys} keys and ${METADATA_LIMITS.maxBytes} bytes` },
        ]);
      }
      campaign.metadata = merged;
    }
    await tx.flush();
    // Read back as every campaign answer is read: the row and its stats, in this transaction.
    return getCampaign({ em: tx }, caller, { campaignId: campaign.id });
  });
}
