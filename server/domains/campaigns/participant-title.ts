import type { Campaign } from '../../entities/index.js';

/** What participants see a campaign called (pages, the interview, invite emails): its participant title, else its name. */
export function participantTitleOf(campaign: Pick<Campaign, 'name' | 'participantTitle'>): string {
  return campaign.participantTitle ?? campaign.name;
}
