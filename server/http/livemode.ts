import type { RequestAuth } from '../domains/common/caller.js';

/**
 * Test mode's mark on what the API answers (docs/api.md "Test mode"): every record a response
 * carries says which world it belongs to, `livemode: true` for live keys, members and live
 * invites, `false` for a test key (`isk_test_`) and a test world's invite. "A record" is read
 * the same way here and in the OpenAPI document (openapi-compaction.ts): the answer itself when
 * it has an `id`, else each of its top-level members that has one, and each item of a list's
 * `data`.
 */

export function livemodeOf(auth: RequestAuth | undefined): boolean {
  return auth === undefined || auth.kind === 'member' ? true : auth.livemode;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { id?: unknown }).id === 'string';
}

function marked(record: Record<string, unknown>, livemode: boolean): Record<string, unknown> {
  return { ...record, livemode };
}

/** The answer with `livemode` on its records (as above); anything else is returned as it is. */
export function withLivemode(data: unknown, livemode: boolean): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  if (isRecord(data)) return marked(data, livemode);
  const answer = data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(answer)) {
    if (key === 'data' && Array.isArray(value)) out[key] = value.map((item) => (isRecord(item) ? marked(item, livemode) : item));
    else out[key] = isRecord(value) ? marked(value, livemode) : value;
  }
  return out;
}
