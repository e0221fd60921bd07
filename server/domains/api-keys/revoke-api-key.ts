import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey } from '../../entities/index.js';
import { notFound } from '../../errors.js';

/** Revocation takes effect on the next request; revoking twice keeps the first time. */
export async function revokeApiKey(em: EntityManager, apiKeyId: string): Promise<ApiKey> {
  const apiKey = await em.findOne(ApiKey, { id: apiKeyId });
  if (!apiKey) throw notFound('apiKey', apiKeyId);
  apiKey.revokedAt ??= new Date();
  await em.flush();
  return apiKey;
}
