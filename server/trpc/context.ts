import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { RequestAuth } from '../domains/common/caller.js';
import type { AppServices } from '../services.js';
import { idempotencyKeyOf } from '../http/idempotency.js';

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
  /** The request's `Idempotency-Key`, checked (400 when malformed), for an operation that hands it to a provider. */
  idempotencyKey(): string | undefined;
  req: Request;
  res: Response;
}

export function createContext(services: AppServices, req: Request, res: Response, via: Context['via']): Context {
  return { auth: req.auth ?? null, services, via, answer: {}, idempotencyKey: () => idempotencyKeyOf(req), req, res };
}

/** The one permission check lives with the caller (domain operations use it too); the edges import it from here as before. */
export { assertPermission } from '../domains/common/permissions.js';

declare global {
  namespace Express {
    interface Request {
      auth?: RequestAuth;
    }
  }
}
