import type { TQuickstartInput, TQuickstartResult } from '../../../shared/schemas/quickstart.js';
import type { AppServices } from '../../services.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { createCampaign } from '../campaigns/index.js';
import { loadCampaign } from '../campaigns/index.js';
import { loadLinkOwner } from '../organizations/index.js';
import { createScript, publishScript } from '../scripts/index.js';
import { insertShareLink, toShareLinkDto } from '../share-links/index.js';

/** Quickstart scripts need a system prompt; this one frames the interview by its title. */
function defaultSystemPrompt(title: string): string {
  return (
    `You are a friendly, neutral interviewer conducting a research interview titled "${title}". ` +
    'Ask the questions in order, one at a time. Keep your own turns short, do not lead the participant, ' +
    'and ask a brief follow-up when an answer is vague.'
  );
}

/**
 * From questions to a link participants can open, in one transaction: a published script, an
 * active campaign on it and a share link. Nothing is left behind when any step fails.
 */
export async function quickstart(
  { em, services }: Pick<Deps, 'em'> & { services: Pick<AppServices, 'links' | 'emailTemplates' | 'synthesis'> },
  caller: Caller,
  input: TQuickstartInput,
): Promise<TQuickstartResult> {
  return em.transactional(async (tx) => {
    const settings = input.locale ? { language: input.locale } : undefined;
    const script = await createScript({ em: tx, services }, caller, {
      name: input.title,
      systemPrompt: defaultSystemPrompt(input.title),
      questions: input.questions,
      settings,
    });
    await publishScript({ em: tx }, caller, { scriptId: script.id });
    const campaignDto = await createCampaign({ em: tx, services }, caller, { name: input.title, scriptId: script.id, settings });
    const campaign = await loadCampaign(tx, caller, { campaignId: campaignDto.id });
    const { mode: _mode, ...linkOptions } = input.distribution;
    const link = await insertShareLink(tx, campaign, linkOptions);
    return {
      share_link: toShareLinkDto(link, campaign, 0, await loadLinkOwner(tx, caller), services.links),
      scriptId: script.id,
      campaignId: campaign.id,
      shareLinkId: link.id,
    };
  });
}
