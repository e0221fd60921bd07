import type { ParticipantAuth } from '../domains/common/caller.js';
import type { NextFunction, Request, Response } from 'express';
import { rateLimitFor } from '../../shared/plans.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ROLE_PERMISSIONS } from '../../shared/members.js';
import { authenticateApiKey } from '../domains/api-keys/authenticate-api-key.js';
import { authenticateMember } from '../domains/auth/authenticate-member.js';
import { looksLikeJwt } from '../lib/member-tokens.js';
import { findInviteCredential } from '../domains/invites/find-invite-by-token.js';
import { invalidInviteToken } from '../domains/sessions/participant-access.js';
import { isWellFormedInviteToken } from '../lib/invite-tokens.js';
import { consumeParticipantBudget } from '../platform/participant-limits.js';
import { AppError } from '../errors.js';
import { consumeRateLimit, rateLimitedError, setRateLimitHeaders } from '../platform/rate-limit.js';
import type { AppServices } from '../services.js';

/** tRPC batches several calls in one request (`/trpc/a,b,c?batch=1`); each call counts. */
export const MAX_TRPC_BATCH_SIZE = 10;

/**
 * Whether tRPC will run this request as a batch. Read as tRPC reads it (the first `batch` of the
 * query string), not from Express's parsed query, where `?batch=1&batch=1` is an array: counted
 * as one call, such a batch of ten would run on one unit of the budget.
 */
export function isTrpcBatch(req: Request): boolean {
  return req.originalUrl.startsWith('/trpc/') && new URL(req.originalUrl, 'http://localhost').searchParams.get('batch') === '1';
}

function callsIn(req: Request): number {
  if (!isTrpcBatch(req)) return 1;
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
 * budgets, never a customer's key budget: a valid token against its own, an unknown token or one
 * whose invite was cancelled against the address's (then 401). What it may do is decided per
 * operation.
 */
async function authenticateParticipant(em: EntityManager, services: AppServices, req: Request, res: Response, token: string): Promise<ParticipantAuth> {
  // Looked up first: which budget counts depends on it (one indexed read, as before).
  const invite = await findInviteCredential({ em }, { token });
  const valid = invite !== null && invite.status !== 'cancelled';
  const state = await consumeParticipantBudget(em, services.config, req, valid ? { token, viaShareLink: invite.viaShareLink } : undefined, callsIn(req));
  setRateLimitHeaders(res, state);
  if (state.exceeded) throw rateLimitedError(state);
  if (!valid) throw invalidInviteToken();
  return { kind: 'participant', organizationId: invite.organizationId, inviteId: invite.id, livemode: invite.livemode };
}

/** The tRPC procedures a batch calls: `/trpc/a,b?batch=1` → `['a', 'b']`. */
function trpcProceduresOf(req: Request): string[] {
  if (!req.originalUrl.startsWith('/trpc/')) return [];
  return decodeURIComponent(req.path.replace(/^\//, '')).split(',');
}

/** Counts a caller without credentials per address: key guessing, sign-in floods. */
async function consumeAnonymousBudget(em: EntityManager, services: AppServices, req: Request, res: Response): Promise<void> {
  const state = await consumeRateLimit(em, `ip:${req.ip ?? 'unknown'}`, services.config.rateLimitAnonymousPerMinute, callsIn(req));
  setRateLimitHeaders(res, state);
  if (state.exceeded) throw rateLimitedError(state);
}

/**
 * API authentication and the per-caller rate limit, in front of every `/v1`, `/api` and `/trpc`
 * route: an API key, a member's access token (JWT) or a participant's invite token. Requests
 * without valid credentials are counted per client address (so key guessing and floods are
 * bounded too) and answered 401, except calls of public tRPC procedures (sign-in, refresh,
 * accepting an invitation), which go on without credentials under that same budget.
 */
export function authenticateRequests(services: AppServices, publicProcedures: ReadonlySet<string>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const em = services.orm.em.fork();
      const presented = bearerToken(req);
      if (presented && isWellFormedInviteToken(presented)) {
        req.auth = await authenticateParticipant(em, services, req, res, presented);
        next();
        return;
      }
      const procedures = trpcProceduresOf(req);
      if (procedures.length > 0 && procedures.every((name) => publicProcedures.has(name))) {
        // Credentials sent along are not looked at: these procedures act on what their input proves.
        await consumeAnonymousBudget(em, services, req, res);
        next();
        return;
      }
      if (presented && looksLikeJwt(presented)) {
        const member = await authenticateMember({ em, services }, { accessToken: presented });
        if (!member) {
          await consumeAnonymousBudget(em, services, req, res);
          throw new AppError('INVALID_ACCESS_TOKEN', 'The access token is invalid or expired, or its sign-in has ended: refresh it or sign in again.');
        }
        const state = await consumeRateLimit(em, `member:${member.memberId}`, rateLimitFor(member.plan, member.customRateLimit), callsIn(req));
        setRateLimitHeaders(res, state);
        if (state.exceeded) throw rateLimitedError(state);
        req.auth = {
          kind: 'member',
          organizationId: member.organizationId,
          memberId: member.memberId,
          memberSessionId: member.memberSessionId,
          role: member.role,
          permissions: ROLE_PERMISSIONS[member.role],
        };
        next();
        return;
      }
      const key = presented ? await authenticateApiKey({ em }, { presentedKey: presented }) : undefined;
      if (!key) {
        await consumeAnonymousBudget(em, services, req, res);
        throw new AppError(
          'INVALID_API_KEY',
          presented ? 'The API key is invalid, expired or revoked.' : 'Missing API key. Send it as "Authorization: Bearer <API_KEY>".',
        );
      }
      const state = await consumeRateLimit(em, `key:${key.apiKeyId}`, rateLimitFor(key.plan, key.customRateLimit), callsIn(req));
      setRateLimitHeaders(res, state);
      if (state.exceeded) throw rateLimitedError(state);
      req.auth = { kind: 'api_key', organizationId: key.organizationId, apiKeyId: key.apiKeyId, permissions: key.permissions, livemode: key.livemode };
      next();
    } catch (error) {
      next(error);
    }
  };
}
