import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request } from 'express';
import type { Config } from '../config.js';
import { consumeRateLimit, type RateLimitState } from './rate-limit.js';

/**
 * Participant-facing traffic (share links, invite pages, the participant API) has budgets of its
 * own, apart from customers' API keys, so participants never spend a customer's key budget.
 *
 * A request that carries a valid invite token (its invite exists and is not cancelled: the caller
 * has looked it up) is counted against that token only, whatever the address: many people share
 * one address (an office, a school, a carrier's NAT), and an address budget would let twenty of
 * them interviewing at once refuse each other. One person's interview stays far below the token's
 * budget, and a leaked invite link cannot be hammered from many addresses.
 *
 * Everything else (pages without a token, share codes, which are public by design, and tokens that
 * are malformed, unknown or cancelled) is counted per client address, so token guessing stays
 * bounded per address. Tokens are hashed before they name a bucket.
 *
 * Returns the state of the bucket counted, for the caller to set headers from and to answer 429 in
 * its own format (HTML or JSON).
 */
export async function consumeParticipantBudget(
  em: EntityManager,
  config: Pick<Config, 'rateLimitParticipantPerMinute' | 'rateLimitParticipantCredentialPerMinute'>,
  req: Request,
  /** The invite token, only when it is valid. */
  validToken: string | undefined,
  /** Calls the request carries (a /trpc batch is several). */
  units = 1,
): Promise<RateLimitState> {
  if (!validToken) return consumeRateLimit(em, `participant-ip:${req.ip ?? 'unknown'}`, config.rateLimitParticipantPerMinute, units);
  const digest = createHash('sha256').update(validToken).digest('hex').slice(0, 32);
  return consumeRateLimit(em, `participant-credential:${digest}`, config.rateLimitParticipantCredentialPerMinute, units);
}
