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
 * A share link mints a token per visit, so per-token budgets alone would let one address multiply
 * its budget by visiting again and again. Tokens minted that way also count against a ceiling per
 * address, SHARE_LINK_ADDRESS_MULTIPLE times the address budget: far above what a room of people
 * answering one posted link sends, far below a token per visit.
 *
 * Returns the state of the bucket counted (the ceiling's when it is the one exceeded), for the
 * caller to set headers from and to answer 429 in its own format (HTML or JSON).
 */
export const SHARE_LINK_ADDRESS_MULTIPLE = 10;

export interface ParticipantCredential {
  /** A valid invite token (its invite exists and is not cancelled). */
  token: string;
  viaShareLink: boolean;
}

export async function consumeParticipantBudget(
  em: EntityManager,
  config: Pick<Config, 'rateLimitParticipantPerMinute' | 'rateLimitParticipantCredentialPerMinute'>,
  req: Request,
  /** Only when the token is valid. */
  credential: ParticipantCredential | undefined,
  /** Calls the request carries (a /trpc batch is several). */
  units = 1,
): Promise<RateLimitState> {
  const address = req.ip ?? 'unknown';
  if (!credential) return consumeRateLimit(em, `participant-ip:${address}`, config.rateLimitParticipantPerMinute, units);
  const digest = createHash('sha256').update(credential.token).digest('hex').slice(0, 32);
  const own = await consumeRateLimit(em, `participant-credential:${digest}`, config.rateLimitParticipantCredentialPerMinute, units);
  if (!credential.viaShareLink || own.exceeded) return own;
  const ceiling = await consumeRateLimit(em, `participant-share-ip:${address}`, config.rateLimitParticipantPerMinute * SHARE_LINK_ADDRESS_MULTIPLE, units);
  return ceiling.exceeded ? ceiling : own;
}
