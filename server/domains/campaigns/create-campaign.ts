import type { TCampaign, TCreateCampaignInput } from '../../../shared/schemas/campaigns.js';
import type { EmailTemplates } from '../../email/templates.js';
import { AppError } from '../../errors.js';
import { assertKnownVoice, type SpeechSynthesizer } from '../../speech/speech-synthesizer.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { assertKnownEmailTemplate } from './invite-options.js';
import { loadProjectForAssignment } from '../projects/index.js';
import { campaignDtoFromRow } from './campaign-rows.js';
import { insertCampaign } from './queries.js';
import { loadUsableScript } from './usable-script.js';

/**
 * What writes of a campaign's settings need: the unit of work, the email templates (invite
 * defaults name one) and the server's speech synthesis (`settings.voice` must be one of its voices;
 * any name without one: the browser's).
 */
export type CampaignWriteDeps = Pick<Deps, 'em'> & {
  services: { emailTemplates: EmailTemplates; synthesis: { synthesizer: Pick<SpeechSynthesizer, 'voices' | 'name'> | null } };
};

/**
 * A new campaign is active, on a script with a published version; its stats are all zero. One
 * statement inserts it from its script, which must be the organization's, not deleted or
 * archived, and published (share-locked, so a concurrent delete cannot slip in), and from its
 * project when one is named. When nothing is inserted, the loaders say why (404, SCRIPT_ARCHIVED,
 * SCRIPT_NOT_PUBLISHED): the usual answer costs one statement, a refusal a few more.
 */
export async function createCampaign({ em, services }: CampaignWriteDeps, caller: Caller, input: TCreateCampaignInput): Promise<TCampaign> {
  const { organizationId } = caller;
  assertKnownEmailTemplate(services.emailTemplates, input.inviteDefaults?.emailTemplate, 'inviteDefaults.emailTemplate');
  assertKnownVoice(services.synthesis.synthesizer, input.settings?.voice, 'settings.voice');
  const projectId = input.projectId ?? null;
  const insert = () =>
    insertCampaign.rows(em, {
      organizationId,
      projectId,
      scriptId: input.scriptId,
      name: input.name,
      participantTitle: input.participantTitle ?? null,
      description: input.description ?? null,
      settings: input.settings ?? {},
      inviteDefaults: input.inviteDefaults ?? {},
      metadata: input.metadata ?? {},
    });
  const [row] = await insert();
  if (row) return campaignDtoFromRow(row);
  // Refused: the loaders throw the error that says why, in the order the checks were always made.
  await em.transactional(async (tx) => {
    if (projectId) await loadProjectForAssignment(tx, caller, { projectId });
    await loadUsableScript(tx, caller, { scriptId: input.scriptId });
  });
  // Usable now (it changed in between): once more.
  const [retried] = await insert();
  if (retried) return campaignDtoFromRow(retried);
  throw new AppError('SCRIPT_NOT_PUBLISHED', `Script ${input.scriptId} cannot be used by a campaign now; try again.`, {
    scriptId: input.scriptId,
    fields: [{ path: 'scriptId', message: 'is not usable' }],
  });
}
