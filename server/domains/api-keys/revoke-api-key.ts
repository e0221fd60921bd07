import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey } from '../../entities/index.js';
import { notFound } from '../../errors.js';

/** Revocation takes effect on the next request; revoking twice keeps the first time. */
export async function revokeApiKey(em: EntityManager, apiKeyId: string, organizationId?: string): Promise<ApiKey> {
  // With an organization (a member revoking): another organization's key is 404, as everywhere.
  const apiKey = await em.findOne(ApiKey, organizationId ? { id: apiKeyId, organization: organizationId } : { id: apiKeyId });
  if (!apiKey) throw notFound('apiKey', apiKeyId);
  apiKey.revokedAt ??= new Date();
  await em.flush();
  return apiKey;
}
