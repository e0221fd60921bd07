import type { TCampaignSettings } from '../../../shared/schemas/campaigns.js';

/**
 * The interview language: the invite's, else the campaign's, else the script version's, else
 * English. With invites (the invite page and email speak it before any session exists); sessions
 * use it through invites/index.ts when an interview starts.
 */
export function languageOf(inviteLanguage: string | null | undefined, campaignSettings: TCampaignSettings, scriptLanguage: string | undefined): string {
  return inviteLanguage ?? campaignSettings.language ?? scriptLanguage ?? 'en';
}
