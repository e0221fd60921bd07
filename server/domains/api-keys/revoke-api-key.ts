import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { organizationWorldIds } from '../organizations/index.js';

/** Revocation takes effect on the next request; revoking twice keeps the first time. */
async function revoke(em: EntityManager, where: FilterQuery<ApiKey>, apiKeyId: string): Promise<ApiKey> {
  const apiKey = await em.findOne(ApiKey, where);
  if (!apiKey) throw notFound('apiKey', apiKeyId);
  apiKey.revokedAt ??= new Date();
  await em.flush();
  return apiKey;
}

/** Revokes a key of the caller's organization, live or test: another organization's key is 404, as everywhere. */
export async function revokeApiKey({ em }: Pick<Deps, 'em'>, caller: Caller, input: { apiKeyId: string }): Promise<ApiKey> {
  const worlds = await organizationWorldIds(em, { organizationId: caller.organizationId });
  return revoke(em, { id: input.apiKeyId, organization: { $in: worlds } }, input.apiKeyId);
}

/** The admin CLI's revoke: an operator names a key by its id alone, whatever its organization. */
export async function revokeApiKeyAsOperator({ em }: Pick<Deps, 'em'>, input: { apiKeyId: string }): Promise<ApiKey> {
  return revoke(em, { id: input.apiKeyId }, input.apiKeyId);
}
