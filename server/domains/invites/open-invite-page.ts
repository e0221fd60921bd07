import type { Deps } from '../common/deps.js';
import type { TResolvedTurnTaking, TTurnTaking } from '../../../shared/schemas/turn-taking.js';
import { type Campaign, type Invite, type Organization, ShareLink } from '../../entities/index.js';
import { campaignTurnTaking } from '../campaigns/index.js';
import { languageOf } from './interview-language.js';
import { inviteVersionSettings } from './queries.js';
import { assessShareLink } from './share-link-status.js';
import { findInviteByToken } from './find-invite-by-token.js';
import { effectiveInviteStatus } from './serialize.js';

/** Why an invite page cannot offer the interview; `paused` may end, the others are final. */
export type InvitePageClosedReason = 'cancelled' | 'expired' | 'completed' | 'paused' | 'closed' | 'full' | 'link_expired';

export type InvitePageOutcome =
  | { kind: 'not_found' }
  /** `language`: the invite's, else the campaign's, to say why in (the script is not read for a closed page). */
  | { kind: 'closed'; reason: InvitePageClosedReason; campaign: Campaign; organization: Organization; language: string }
  /** The interview can be taken (`started`: it was begun before and continues). */
  | {
      kind: 'open';
      invite: Invite;
      campaign: Campaign;
      organization: Organization;
      started: boolean;
      /** The interview's language and voice as a session started now has them (campaign, else script). */
      language: string;
      voice: string | null;
      /** Voice mode's turn-taking: the campaign's over the script's over the defaults. */
      turnTaking: TResolvedTurnTaking;
    };

/**
 * What a participant opening `/interview/{token}` may do: nothing (unknown or malformed token),
 * read why the interview is closed, or take it. A visitor who arrived through a share link
 * before it filled up or closed cannot start any more.
 */
// No caller: the token finds the invite (and with it the organization).
export async function openInvitePage({ em }: Pick<Deps, 'em'>, { token }: { token: string }): Promise<InvitePageOutcome> {
  const invite = await findInviteByToken({ em }, { token });
  if (!invite) return { kind: 'not_found' };
  const { campaign, organization } = invite;
  const closed = (reason: InvitePageClosedReason): InvitePageOutcome => ({
    kind: 'closed',
    reason,
    campaign,
    organization,
    language: languageOf(invite.language, campaign.settings, undefined),
  });
  const status = effectiveInviteStatus(invite);
  if (status === 'cancelled' || status === 'expired' || status === 'completed') return closed(status);
  if (campaign.status !== 'active') return closed(campaign.status === 'paused' ? 'paused' : 'closed');
  if (status === 'pending' && invite.shareLink) {
    const link = await em.findOneOrFail(ShareLink, invite.shareLink.id);
    const { status: linkStatus } = await assessShareLink(em, link, campaign);
    if (linkStatus !== 'active') return closed(linkStatus === 'expired' ? 'link_expired' : linkStatus);
  }
  // One statement for the published version's language, voice and turn-taking (a preview invite's
  // own version): the page loads on every visit.
  const published = await inviteVersionSettings.first(em, { scriptId: campaign.script.id, version: invite.scriptVersion ?? null });
  return {
    kind: 'open',
    invite,
    campaign,
    organization,
    started: status === 'started',
    language: languageOf(invite.language, campaign.settings, published?.language ?? undefined),
    voice: campaign.settings.voice ?? published?.voice ?? null,
    turnTaking: campaignTurnTaking(campaign, { turnTaking: (published?.turn_taking as TTurnTaking | null) ?? undefined }),
  };
}
