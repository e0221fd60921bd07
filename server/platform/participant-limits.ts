import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request } from 'express';
import type { Config } from '../config.js';
import { consumeRateLimits, type RateLimitState } from './rate-limit.js';

/**
 * Participant-facing traffic (share links, invite pages, and the participant API as it lands)
 * has budgets of its own, apart from customers' API keys: one per client address and, when the
 * request carries an invite token, one per token (share codes are public by design: address
 * only). So participants never spend a customer's key budget, one address cannot flood the
 * service, and one leaked invite link cannot be hammered from many addresses. Tokens are hashed
 * before they name a bucket.
 *
 * Returns the tightest state (the exceeded one, else the one with the fewest requests left),
 * for the caller to set headers from and to answer 429 in its own format (HTML or JSON).
 */
export async function consumeParticipantBudget(
  em: EntityManager,
  config: Pick<Config, 'rateLimitParticipantPerMinute' | 'rateLimitParticipantCredentialPerMinute'>,
  req: Request,
  credential?: string,
  /** Calls the request carries (a /trpc batch is several). */
  units = 1,
): Promise<RateLimitState> {
  const address = { bucket: `participant-ip:${req.ip ?? 'unknown'}`, limit: config.rateLimitParticipantPerMinute, units };
  if (!credential) return (await consumeRateLimits(em, [address]))[0]!;
  const digest = createHash('sha256').update(credential).digest('hex').slice(0, 32);
  // Both buckets in one statement: every participant call pays one round trip for its budgets.
  const [byAddress, byCredential] = await consumeRateLimits(em, [address, { bucket: `participant-credential:${digest}`, limit: config.rateLimitParticipantCredentialPerMinute, units }]);
  if (byAddress!.exceeded) return byAddress!;
  return byCredential!.exceeded || byCredential!.remaining < byAddress!.remaining ? byCredential! : byAddress!;
}
