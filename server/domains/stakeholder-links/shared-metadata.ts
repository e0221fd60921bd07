import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, sql } from '../../db/sql.js';
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
    const found = await queryRows<{ campaign_id: string; key: string; value: string }>(
      em,
      sql`with wanted as (select * from jsonb_to_recordset(${JSON.stringify([...wanted.values()])}::jsonb) as w(campaign_id text, key text, value text)),
               held as (
                 select s.campaign_id, coalesce(lower(coalesce(s.participant_email, i.email)), s.invite_id) as participant, m.key, m.value
                   from sessions s left join invites i on i.id = s.invite_id
                  cross join lateral (select * from jsonb_each_text(s.metadata) union select * from jsonb_each_text(coalesce(i.metadata, '{}'::jsonb))) as m(key, value)
                  where s.organization_id = ${organizationId} and not s.preview and s.campaign_id in (select campaign_id from wanted)
               )
          select h.campaign_id, h.key, h.value
            from held h join wanted w on w.campaign_id = h.campaign_id and w.key = h.key and w.value = h.value
           group by h.campaign_id, h.key, h.value
          having count(distinct h.participant) > 1`,
    );
    for (const entry of found) shared.add(entryKey(entry.campaign_id, entry.key, entry.value));
  }
  return (campaignId) => (key, value) => shared.has(entryKey(campaignId, key, value));
}
