/**
 * API key permissions, exactly the spec's list. Projects and scripts have no permission of
 * their own: they use the campaigns pair (design.md "Auth and permissions").
 */
export const PERMISSIONS = [
  'campaigns:read',
  'campaigns:write',
  'invites:read',
  'invites:write',
  'sessions:read',
  'sessions:write',
  'billing:read',
  'billing:write',
  'organization:read',
  'organization:write',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** What an operation requires: one permission, or several that must all be held (quickstart). */
export type PermissionRequirement = Permission | readonly Permission[];

export function requiredPermissions(requirement: PermissionRequirement): readonly Permission[] {
  return typeof requirement === 'string' ? [requirement] : requirement;
}

/** `campaigns:write` or `campaigns:write + invites:write`, for docs and tables. */
export function describeRequirement(requirement: PermissionRequirement): string {
  return requiredPermissions(requirement).join(' + ');
}

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/**
 * Parses the CLI/dashboard form: `all` or a comma-separated list. Throws on unknown names so a
 * typo never silently creates a weaker (or useless) key.
 */
export function parsePermissionList(spec: string): Permission[] {
  const trimmed = spec.trim();
  if (trimmed === 'all') return [...PERMISSIONS];
  const names = trimmed
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  if (names.length === 0) throw new Error('No permissions given; use "all" or a comma-separated list.');
  const unknown = names.filter((name) => !isPermission(name));
  if (unknown.length > 0) {
    throw new Error(`Unknown permission(s): ${unknown.join(', ')}. Known: ${PERMISSIONS.join(', ')}.`);
  }
  return PERMISSIONS.filter((permission) => names.includes(permission));
}
