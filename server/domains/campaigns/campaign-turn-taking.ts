import type { TCampaignSettings } from '../../../shared/schemas/campaigns.js';
import type { TScriptSettings } from '../../../shared/schemas/scripts.js';
import { resolveTurnTaking, type TResolvedTurnTaking, type TTurnTaking } from '../../../shared/schemas/turn-taking.js';

/** Keys that are set (stored JSON has no `undefined`, but a caller's object may). */
function setKeys(turnTaking: TTurnTaking | undefined): TTurnTaking {
  return Object.fromEntries(Object.entries(turnTaking ?? {}).filter(([, value]) => value !== undefined && value !== null));
}

/**
 * The turn-taking a campaign's interviews run with (what the interview page is configured with):
 * key by key, the campaign's `settings.turnTaking` wins over its script's (the published
 * version's `settings.turnTaking`), which wins over DEFAULT_TURN_TAKING, as `voice` and
 * `language` resolve.
 */
export function campaignTurnTaking(
  campaign: { settings: Pick<TCampaignSettings, 'turnTaking'> },
  scriptSettings?: Pick<TScriptSettings, 'turnTaking'> | null,
): TResolvedTurnTaking {
  return resolveTurnTaking({ ...setKeys(scriptSettings?.turnTaking), ...setKeys(campaign.settings.turnTaking) });
}
