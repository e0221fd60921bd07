import type { Request } from 'express';
import type { Permission } from '../../shared/permissions.js';
import { AppError } from '../errors.js';
import type { ApiKeyAuth } from '../trpc/context.js';

/** The permission check of plain Express routes (tRPC procedures declare theirs in meta). */
export function requirePermission(req: Request, permission: Permission): ApiKeyAuth {
  if (!req.auth) throw new AppError('INVALID_API_KEY', 'A valid API key is required.');
  if (!req.auth.permissions.includes(permission)) {
    throw new AppError('INSUFFICIENT_PERMISSIONS', `This API key lacks the ${permission} permission.`, { required: permission });
  }
  return req.auth;
}
