import type { EntityManager } from '@mikro-orm/postgresql';
import { sharedMetadataEntries } from './queries.js';
import type { IdentityRow, ScrubberOptions } from '../anonymized-exports/index.js';

/** A session row of a shared view: its campaign and the identity columns its scrubber reads. */
export interface CampaignIdentityRow extends IdentityRow {
  campaign_id: string;
}

/** Whether an entry of a campaign's invite metadata is held by two participants or more. */
export type SharedMetadata = (campaignId: string) => NonNullable<ScrubberOptions['sharedMetadata']>;

const entryKey = (campaignId: string, key: string, value: string) => JSON.stringify([campaignId, key, value]);

/**
 * Which metadata entries (key and value) of these sessions at least two participants of the same
 * campaign hold, in one statement whatever the number of sessions: only the entries the rows
 * carry are counted. Counted per campaign, not across the organization, because a viewer sees
 * each session (and each collection quote) under its campaign's name, and the results page's
 * segments are per campaign: a team common in the organization but held by one participant of
 * the campaign names that participant. A participant is an email address (two sessions of the
 * same person are one), or else an invite; preview sessions are never counted.
 */
export async function readSharedMetadata(em: EntityManager, organizationId: string, rows: CampaignIdentityRow[]): Promise<SharedMetadata> {
  const wanted = new Map<string, { campaign_id: string; key: string; value: string }>();
  for (const row of rows) {
    for (const [key, value] of [...Object.entries(row.metadata ?? {}), ...Object.entries(row.invite_metadata ?? {})]) {
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      wanted.set(entryKey(row.campaign_id, key, String(value)), { campaign_id: row.campaign_id, key, value: String(value) });
    }
  }
  const shared = new Set<string>();
  if (wanted.size > 0) {
    const found = await sharedMetadataEntries.rows(em, { organizationId, wanted: [...wanted.values()] });
    for (const entry of found) shared.add(entryKey(entry.campaign_id, entry.key, entry.value));
  }
  return (campaignId) => (key, value) => shared.has(entryKey(campaignId, key, value));
}
