import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaign, TCreateCampaignInput } from '../../../shared/schemas/campaigns.js';
import { Campaign } from '../../entities/index.js';
import type { EmailTemplates } from '../../email/templates.js';
import { newId } from '../../lib/ids.js';
import { assertKnownEmailTemplate } from '../invites/invite-options.js';
import { loadProjectForAssignment } from '../projects/load-project.js';
import { toCampaignDto } from './serialize.js';
import { loadUsableScript } from './usable-script.js';

/** A new campaign is active, on a script with a published version; its stats are all zero. */
export async function createCampaign(
  em: EntityManager,
  templates: EmailTemplates,
  organizationId: string,
  input: TCreateCampaignInput,
): Promise<TCampaign> {
  assertKnownEmailTemplate(templates, input.inviteDefaults?.emailTemplate, 'inviteDefaults.emailTemplate');
  return em.transactional(async (tx) => {
    // Lock order: project, then script (see updateCampaign).
    const project = input.projectId ? await loadProjectForAssignment(tx, organizationId, input.projectId) : null;
    const script = await loadUsableScript(tx, organizationId, input.scriptId);
    const campaign = tx.create(Campaign, {
      id: newId('cam'),
      organization: organizationId,
      project,
      script,
      name: input.name,
      description: input.description ?? null,
      status: 'active',
      settings: input.settings ?? {},
      inviteDefaults: input.inviteDefaults ?? {},
      metadata: input.metadata ?? {},
      archivedAt: null,
    });
    await tx.flush();
    return toCampaignDto(campaign, { totalInvites: 0, completedSessions: 0, averageDuration: 0 });
  });
}
