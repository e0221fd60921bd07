import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { Permission } from '../../shared/permissions.js';
import type { AppServices } from '../services.js';

/** Who is calling: resolved once per request by the authentication middleware. */
export interface ApiKeyAuth {
  kind: 'api_key';
  organizationId: string;
  apiKeyId: string;
  permissions: readonly Permission[];
}

export type RequestAuth = ApiKeyAuth;

export interface Context {
  /** A fork of the ORM's EntityManager for this request only. */
  em: EntityManager;
  auth: RequestAuth | null;
  services: AppServices;
  req: Request;
  res: Response;
}

export function createContext(services: AppServices, req: Request, res: Response): Context {
  return {
    em: services.orm.em.fork() as EntityManager,
    auth: req.auth ?? null,
    services,
    req,
    res,
  };
}

declare global {
  namespace Express {
    interface Request {
      auth?: RequestAuth;
    }
  }
}
