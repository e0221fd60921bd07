import type { NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import { AppError, validationError } from '../errors.js';
import { findUnstorableText } from '../lib/text-safety.js';
import { errorFromZod, type InputSource } from '../validation-errors.js';

// Inputs of plain Express routes, checked as the REST adapter checks procedures' inputs.

/** A path id that cannot name a stored resource is 404. */
export function pathIdOf(req: Request, name: string): string {
  const value = String(req.params[name]);
  if (findUnstorableText(value)) throw new AppError('RESOURCE_NOT_FOUND', 'The resource was not found.');
  return value;
}

/**
 * Text PostgreSQL cannot store (NUL, unpaired surrogates) is refused with its path (400 in a
 * query, 422 in a body), then the schema decides (errorFromZod: 400/422 with field paths).
 */
export function checkedInput<T extends z.ZodType>(raw: unknown, schema: T, source: InputSource): z.infer<T> {
  const unstorable = findUnstorableText(raw);
  if (unstorable) {
    const problem = `${unstorable.path} ${unstorable.message}`;
    throw source === 'query' ? new AppError('INVALID_REQUEST', `Invalid query parameters: ${problem}.`, { fields: [unstorable] }) : validationError([unstorable], `${problem}.`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw errorFromZod(parsed.error, raw, source);
  return parsed.data;
}

/** The query string checked against its schema: a bad parameter is 400 with its field. */
export function queryOf<T extends z.ZodType>(req: Request, schema: T): z.infer<T> {
  return checkedInput(req.query, schema, 'query');
}

/**
 * After the REST adapter, in front of the routes written by hand (uploads, results, exports, the
 * participant API): `If-Match` is honoured on PATCH and DELETE of a record only, so it is refused
 * here as it is elsewhere; and a POST takes no query parameters (its input is the body), so one
 * is refused rather than ignored. GETs check their own query with `queryOf`.
 */
export function refusePlainRouteExtras(req: Request, _res: Response, next: NextFunction): void {
  if (req.get('If-Match') !== undefined) {
    return next(new AppError('INVALID_REQUEST', 'If-Match is honoured on PATCH and DELETE of a record.', { fields: [{ path: 'If-Match', message: `is not supported on ${req.method} ${req.path}` }] }));
  }
  const stray = req.method === 'POST' ? Object.keys(req.query as Record<string, unknown>) : [];
  if (stray.length > 0) {
    return next(new AppError('INVALID_REQUEST', `POST takes its input in the body, not the query: ${stray.join(', ')}.`, {
      fields: stray.map((key) => ({ path: key, message: 'is not a query parameter of this operation' })),
    }));
  }
  next();
}
