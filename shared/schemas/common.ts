import { z } from 'zod';
import { INTERVIEW_LANGUAGES, interviewLanguageOf } from '../languages.js';

/** ISO 8601 UTC timestamp with milliseconds, e.g. `2026-11-22T10:15:30.123Z`. */
export const ZTimestamp = z.iso.datetime({ offset: false, precision: 3 }).meta({ example: '2026-11-25T09:30:00.000Z' });

/** A resource id taken from the URL path. Unknown ids answer 404, so no format rule here. */
export const ZPathId = z.string().min(1).max(255);

export const ZName = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

/** `#` followed by six hex digits, e.g. `#3B82F6`. */
export const ZHexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be # followed by six hex digits, e.g. #3B82F6');

/** BCP 47 language tag such as `en`, `nl` or `pt-BR`. */
export const ZLanguageTag = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/, 'must be a language tag such as en, nl or pt-BR');

/** A language tag an interview can be held in (kept as given: `nl-BE` stays `nl-BE`, and is held in Dutch). */
export const ZInterviewLanguage = ZLanguageTag.refine((tag) => interviewLanguageOf(tag) !== null, {
  message: `must be a language interviews are held in: ${INTERVIEW_LANGUAGES.join(', ')} (with or without a region, such as nl-BE)`,
}).meta({ description: `BCP 47 tag of a supported interview language: ${INTERVIEW_LANGUAGES.join(', ')}, with or without a region (nl-BE is held in Dutch).` });

export const METADATA_LIMITS = { maxKeys: 50, maxKeyLength: 40, maxStringValueLength: 500, maxBytes: 8192 } as const;

const ZMetadataKey = z.string().min(1).max(METADATA_LIMITS.maxKeyLength, `keys must be at most ${METADATA_LIMITS.maxKeyLength} characters`);
const ZMetadataValue = z.union([z.string().max(METADATA_LIMITS.maxStringValueLength), z.number(), z.boolean()]);

function metadataWithinLimits(value: Record<string, unknown>): boolean {
  return Object.keys(value).length <= METADATA_LIMITS.maxKeys && new TextEncoder().encode(JSON.stringify(value)).length <= METADATA_LIMITS.maxBytes;
}

const metadataLimitMessage = `at most ${METADATA_LIMITS.maxKeys} keys and ${METADATA_LIMITS.maxBytes} bytes of JSON`;

/** Custom key-value pairs: string keys; string, number or boolean values. */
export const ZMetadata = z
  .record(ZMetadataKey, ZMetadataValue)
  .refine(metadataWithinLimits, metadataLimitMessage)
  .meta({ id: 'Metadata', description: `Custom key-value pairs (${metadataLimitMessage}).` });

/** In updates, keys are merged into the stored metadata; a `null` value removes the key. */
export const ZMetadataPatch = z.record(ZMetadataKey, ZMetadataValue.nullable()).refine(metadataWithinLimits, metadataLimitMessage);

export const PAGE_LIMITS = { defaultLimit: 20, maxLimit: 100 } as const;

/** Shared query parameters of every list operation. */
export const ZPaginationQuery = {
  limit: z.coerce.number().int().min(1).max(PAGE_LIMITS.maxLimit).default(PAGE_LIMITS.defaultLimit).meta({ description: 'Page size, 1 to 100 (default 20).' }),
  offset: z.coerce.number().int().min(0).max(2_147_483_647).default(0).meta({
    description:
      'Number of matches to skip (default 0). Pages by offset shift when items are created or deleted meanwhile: use startingAfter to page through a list that changes.',
  }),
  startingAfter: z.string().min(1).max(1000).optional().meta({
    description:
      "Cursor paging: the previous page's `pagination.nextCursor` (or an item id of this list). The page starts after that item, whatever was created or deleted meanwhile. Not with offset.",
    example: 'cur_WyIyMDI2LTExLTI1IDE4OjI5OjAxLjEyMzQ1NiswMCIsInByal9rZnUxYVZFMlFPVU9OZ0dla3JzQWJhIl0',
  }),
};

export const ZSortOrder = z.enum(['asc', 'desc']).default('desc').meta({ description: 'Sort direction (default desc).' });

export const ZPagination = z
  .object({
    total: z.number().int().meta({ description: 'All matches of the filters, not just this page.' }),
    limit: z.number().int(),
    offset: z.number().int(),
    hasMore: z.boolean(),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `startingAfter` for the next page (null on the last page): stable under inserts and deletes.' }),
  })
  .meta({ id: 'Pagination' });

export type TPagination = z.infer<typeof ZPagination>;

/** The pagination envelope every list operation answers with. */
export function ZPage<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination: ZPagination });
}

export interface Page<T> {
  data: T[];
  pagination: TPagination;
}

/**
 * Who wrote a highlight, comment, collection or saved search: a signed-in member or an API key,
 * with the name it had then (a member's name, else their email; a key's name).
 */
export const ZAuthor = z.object({
  kind: z.enum(['member', 'api_key']),
  id: z.string(),
  name: z.string(),
});
export type TAuthor = z.infer<typeof ZAuthor>;

/** Pages of workspace lists: newest first, `cursor` is the previous page's `nextCursor`. */
export const ZCursorPageInput = {
  cursor: z.string().min(1).max(1000).optional(),
  limit: z.number().int().min(1).max(PAGE_LIMITS.maxLimit).default(PAGE_LIMITS.defaultLimit),
};

/** A cursor page: `nextCursor` is null on the last page. */
export function ZCursorPage<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), hasMore: z.boolean(), nextCursor: z.string().nullable() });
}

export interface CursorPage<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

export const ZFieldError = z.object({ path: z.string(), message: z.string() }).meta({ id: 'FieldError' });

export const ZErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Machine-readable error code; see the error table.' }),
      message: z.string(),
      details: z
        .object({ fields: z.array(ZFieldError).optional() })
        .catchall(z.unknown())
        .meta({ description: 'Extra context; `fields` lists offending fields for 400 and 422.' }),
      retryAfter: z.number().int().optional().meta({ description: 'RATE_LIMITED only: seconds to wait.' }),
      requestId: z
        .string()
        .optional()
        .meta({ description: 'The request id, as in the `X-Request-Id` header: quote it to support.', example: 'req_9f2c1d7e0b4a6c8e1f3a5b7d' }),
    }),
  })
  .meta({ id: 'Error' });

/** Input of operations that take only the resource id from the path. */
export function ZIdInput<K extends string>(key: K) {
  return z.strictObject({ [key]: ZPathId } as { [P in K]: typeof ZPathId });
}
