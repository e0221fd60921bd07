import { type PermissionRequirement, requiredPermissions } from '../../../shared/permissions.js';
import { AppError } from '../../errors.js';
import type { CustomerAuth, RequestAuth } from './caller.js';

/**
 * The one permission check: tRPC procedures (from their meta), plain Express routes and domain
 * operations whose requirement depends on their input (what a stakeholder link shares) use it.
 * It lives with the caller, not in server/trpc, so domain code may use it without knowing HTTP.
 */
export function assertPermission(auth: RequestAuth | null | undefined, requirement: PermissionRequirement): CustomerAuth {
  if (!auth) throw new AppError('INVALID_API_KEY', "A valid API key (or a signed-in member's access token) is required.");
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
