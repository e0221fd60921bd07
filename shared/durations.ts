import { z } from 'zod';

const UNIT_SECONDS = { m: 60, h: 3600, d: 86400, w: 604800 } as const;

/** The longest expiry a relative duration may ask for. */
export const MAX_EXPIRES_IN_SECONDS = 365 * 86400;

/**
 * Relative durations such as `30m`, `24h`, `7d` or `2w`: a positive integer and one unit
 * (m minutes, h hours, d days, w weeks). Returns seconds, or undefined when malformed.
 */
export function parseDurationSeconds(value: string): number | undefined {
  const match = /^([1-9]\d{0,6})([mhdw])$/.exec(value);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

export const ZExpiresIn = z
  .string()
  .refine((value) => parseDurationSeconds(value) !== undefined, 'must be a positive integer followed by m, h, d or w, e.g. 7d')
  .refine((value) => (parseDurationSeconds(value) ?? 0) <= MAX_EXPIRES_IN_SECONDS, 'must be at most 365 days')
  .meta({ description: 'Relative expiry: positive integer + m|h|d|w, e.g. 24h or 7d (at most 365 days).' });
