import type { TOrganizationSettings } from '../../shared/schemas/organization.js';

/** The accent of emails and participant pages when an organization has not set `settings.brandColor`. */
export const DEFAULT_BRAND_COLOR = '#2563eb';

/** The organization's accent colour (validated as `#RRGGBB` when it was set), else the neutral default. */
export function brandColorOf(settings: TOrganizationSettings): string {
  return settings.brandColor ?? DEFAULT_BRAND_COLOR;
}
