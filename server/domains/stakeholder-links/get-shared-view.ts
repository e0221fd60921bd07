import type { Deps } from '../common/deps.js';
import type { TSharedView, TSharedViewInput } from '../../../shared/schemas/stakeholder-links.js';
import { sql } from '../../db/sql.js';
import { findSharedLink, recordOpen } from './find-shared-link.js';
import { readSharedCampaign } from './shared-campaign.js';
import { readSharedCollection } from './shared-collection.js';
import { readSharedSessions } from './shared-sessions.js';

/**
 * `stakeholderLinks.view`, open to anyone holding the token: what the link shares, as its terms
 * say (transcripts or not, PII redacted or not). 404 for an unknown token, 410 for a revoked or
 * expired link (or a deleted target). Every read that answers is recorded as an open (a filter
 * the viewer changes is a read too); one that fails is not.
 */
export async function getSharedView({ em }: Pick<Deps, 'em'>, input: TSharedViewInput): Promise<TSharedView> {
  const link = await findSharedLink(em, input.token);
  const view: TSharedView = {
    link: {
      kind: link.kind,
      includeTranscripts: link.includeTranscripts,
      redactPii: link.redactPii,
      expiresAt: link.expiresAt,
      organizationName: link.organizationName,
    },
    campaign: null,
    collection: null,
    session: null,
  };
  if (link.kind === 'campaign') view.campaign = await readSharedCampaign(em, link, input.filter);
  else if (link.kind === 'collection') view.collection = await readSharedCollection(em, link);
  else {
    const [session] = await readSharedSessions(em, link.organizationId, sql`s.id = ${link.targetId}`, {
      includeTranscripts: link.includeTranscripts,
      redactPii: link.redactPii,
      limit: 1,
    });
    view.session = session ?? null;
  }
  await recordOpen(em, link.id);
  return view;
}
