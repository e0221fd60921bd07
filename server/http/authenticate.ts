import type { NextFunction, Request, Response } from 'express';
import { rateLimitFor } from '../../shared/plans.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { authenticateApiKey } from '../domains/api-keys/authenticate-api-key.js';
import { findInviteCredential } from '../domains/invites/find-invite-by-token.js';
import { invalidInviteToken, type ParticipantAuth } from '../domains/sessions/participant-access.js';
import { isWellFormedInviteToken } from '../lib/invite-tokens.js';
import { consumeParticipantBudget } from '../platform/participant-limits.js';
import { AppError } from '../errors.js';
import { consumeRateLimit, rateLimitedError, setRateLimitHeaders } from '../platform/rate-limit.js';
import type { AppServices } from '../services.js';

/** tRPC batches several calls in one request (`/trpc/a,b,c?batch=1`); each call counts. */
export const MAX_TRPC_BATCH_SIZE = 10;

function callsIn(req: Request): number {
  if (!req.originalUrl.startsWith('/trpc/') || req.query.batch !== '1') return 1;
  return Math.min(MAX_TRPC_BATCH_SIZE, Math.max(1, req.path.split(',').length));
}

function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * A participant's invite token (design.md "Participant API"): counted against the participant
 * budgets (per address and per token), never a customer's key budget; an unknown token or one
 * whose invite was cancelled is 401. What it may do is decided per operation.
 */
async function authenticateParticipant(em: EntityManager, services: AppServices, req: Request, res: Response, token: string): Promise<ParticipantAuth> {
  const state = await consumeParticipantBudget(em, services.config, req, token, callsIn(req));
  setRateLimitHeaders(res, state);
  if (state.exceeded) throw rateLimitedError(state);
  const invite = await findInviteCredential(em, token);
  if (!invite || invite.status === 'cancelled') throw invalidInviteToken();
  return { kind: 'participant', organizationId: invite.organizationId, inviteId: invite.id };
}

/**
 * API authentication and the per-key rate limit, in front of every `/v1`, `/api` and `/trpc`
 * route. Requests without a valid key are counted per client address (so key guessing and
 * floods are bounded too) and answered 401.
 */
export function authenticateRequests(services: AppServices) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const em = services.orm.em.fork();
      const presented = bearerToken(req);
      if (presented && isWellFormedInviteToken(presented)) {
        req.auth = await authenticateParticipant(em, services, req, res, presented);
        next();
        return;
      }
      const key = presented ? await authenticateApiKey(em, presented) : undefined;
      if (!key) {
        const state = await consumeRateLimit(em, `ip:${req.ip ?? 'unknown'}`, services.config.rateLimitAnonymousPerMinute);
        setRateLimitHeaders(res, state);
        if (state.exceeded) throw rateLimitedError(state);
        throw new AppError(
          'INVALID_API_KEY',
          presented
            ? 'The API key is invalid, expired or revoked.'
            : 'Missing API key. Send it as "Authorization: Bearer <API_KEY>".',
        );
      }
      const state = await consumeRateLimit(em, `key:${key.apiKeyId}`, rateLimitFor(key.plan, key.customRateLimit), callsIn(req));
      setRateLimitHeaders(res, state);
      if (state.exceeded) throw rateLimitedError(state);
      req.auth = { kind: 'api_key', organizationId: key.organizationId, apiKeyId: key.apiKeyId, permissions: key.permissions };
      next();
    } catch (error) {
      next(error);
    }
  };
}
