import type { CustomerAuth } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCreatedStakeholderLink, TCreateStakeholderLinkInput } from '../../../shared/schemas/stakeholder-links.js';
import { sql } from '../../db/sql.js';
import { StakeholderLink } from '../../entities/index.js';
import { newId } from '../../lib/ids.js';
import type { PublicLinks } from '../../lib/public-links.js';

import { authorOf } from '../common/author.js';
import { linkFromRow, readLinks } from './link-rows.js';
import { hashStakeholderToken, newStakeholderToken } from './stakeholder-tokens.js';
import { assertMayShare, assertTargetExists } from './target-access.js';

const DAY_MS = 86_400_000;

/**
 * `stakeholderLinks.create`: a read-only link to the target, expiring `expiresInDays` from now.
 * The answer's `url` holds the token; only its hash is stored, so it is shown this once.
 */
export async function createStakeholderLink(
  { em, services: { links } }: { em: EntityManager; services: { links: PublicLinks } },
  auth: CustomerAuth,
  input: TCreateStakeholderLinkInput,
): Promise<TCreatedStakeholderLink> {
  assertMayShare(auth, input.target.kind);
  await assertTargetExists(em, auth, input.target);
  const token = newStakeholderToken();
  const author = await authorOf(em, auth);
  const now = new Date();
  const link = em.create(StakeholderLink, {
    id: newId('stl'),
    organization: auth.organizationId,
    kind: input.target.kind,
    targetId: input.target.id,
    includeTranscripts: input.includeTranscripts,
    redactPii: input.redactPii,
    tokenHash: hashStakeholderToken(token),
    expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
    revokedAt: null,
    createdByKind: author.kind,
    createdById: author.id,
    createdByName: author.name,
    createdAt: now,
    openCount: 0,
    lastOpenedAt: null,
  });
  await em.flush();
  const [row] = await readLinks(em, auth.organizationId, sql`l.id = ${link.id}`);
  return { ...linkFromRow(row!), url: links.stakeholderLinkUrl(token) };
}
