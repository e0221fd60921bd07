import type { Request } from 'express';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import { findUnstorableText } from '../lib/text-safety.js';
import { errorFromZod } from '../validation-errors.js';

/**
 * Inputs of plain Express routes, checked as the REST adapter checks procedures' inputs: a path
 * id that cannot name a stored resource is 404; a bad query parameter is 400 with its field.
 */
export function pathIdOf(req: Request, name: string): string {
  const value = String(req.params[name]);
  if (findUnstorableText(value)) throw new AppError('RESOURCE_NOT_FOUND', 'The resource was not found.');
  return value;
}

export function queryOf<T extends z.ZodType>(req: Request, schema: T): z.infer<T> {
  const raw = req.query as Record<string, unknown>;
  const unstorable = findUnstorableText(raw);
  if (unstorable) throw new AppError('INVALID_REQUEST', `Invalid query parameters: ${unstorable.path} ${unstorable.message}.`, { fields: [unstorable] });
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw errorFromZod(parsed.error, raw, 'query');
  return parsed.data;
}
