import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { type PermissionRequirement, requiredPermissions } from '../../shared/permissions.js';
import type { CustomerAuth, RequestAuth } from '../domains/common/caller.js';
import { AppError } from '../errors.js';
import type { AppServices } from '../services.js';

/**
 * Per request. The EntityManager is not here: `apiProcedure` forks one per procedure call, so
 * the calls of a /trpc batch never share a unit of work.
 */
export interface Context {
  auth: RequestAuth | null;
  services: AppServices;
  /** `rest` when the REST adapter already checked the input's text (see rest-adapter.ts). */
  via: 'rest' | 'trpc';
  /**
   * Set by the REST adapter for a request with an `Idempotency-Key`: the procedure runs in this
   * transaction, which also stores its answer (server/http/idempotency.ts `answerIdempotently`).
   */
  transaction?: EntityManager;
  /**
   * A success status the operation chose (starting an interview: 201 new, 200 resumed), which
   * REST answers instead of the meta's `successStatus`; `/trpc` has no statuses to choose.
   */
  answer: { status?: 200 | 201 };
  req: Request;
  res: Response;
}

export function createContext(services: AppServices, req: Request, res: Response, via: Context['via']): Context {
  return { auth: req.auth ?? null, services, via, answer: {}, req, res };
}

/** The one permission check: tRPC procedures (from their meta) and plain Express routes use it. */
export function assertPermission(auth: RequestAuth | null | undefined, requirement: PermissionRequirement): CustomerAuth {
  if (!auth) throw new AppError('INVALID_API_KEY', 'A valid API key (or a signed-in member\'s access token) is required.');
  if (auth.kind === 'participant') {
    throw new AppError('INVALID_API_KEY', 'This operation needs an API key; an invite token only acts on its own interview.');
  }
  const missing = requiredPermissions(requirement).find((permission) => !auth.permissions.includes(permission));
  if (missing) {
    const who = auth.kind === 'member' ? `A member with the ${auth.role} role` : 'This API key';
    throw new AppError('INSUFFICIENT_PERMISSIONS', `${who} lacks the ${missing} permission.`, { required: missing });
  }
  return auth;
}

declare global {
  namespace Express {
    interface Request {
      auth?: RequestAuth;
    }
  }
}
