import type { ZodError } from 'zod';
import { fieldErrorsFromZod, formatPath } from '../shared/validation-messages.js';
import { AppError } from './errors.js';

// zod issues as the API reports them (shared/validation-messages.ts) and the split between 400
// INVALID_REQUEST and 422 VALIDATION_ERROR (design.md "Errors").

export { formatPath };

/** Where a procedure's raw input came from: the split between 400 and 422 depends on it. */
export type InputSource = 'body' | 'query';

/**
 * design.md "Errors": 400 INVALID_REQUEST when a required field is missing or a query
 * parameter is bad; 422 VALIDATION_ERROR when present body fields break a rule (an array item
 * lacking a field is a bad item of a present array: 422). Both list
 * every offending field in `details.fields`.
 */
export function errorFromZod(error: ZodError, rawInput: unknown, source: InputSource): AppError {
  const { fields, anyMissing } = fieldErrorsFromZod(error, rawInput, source);
  const summary = fields
    .slice(0, 3)
    .map((field) => `${field.path || 'body'} ${field.message}`)
    .join('; ');
  const more = fields.length > 3 ? ` (and ${fields.length - 3} more)` : '';
  if (source === 'query') return new AppError('INVALID_REQUEST', `Invalid query parameters: ${summary}${more}.`, { fields });
  if (anyMissing) return new AppError('INVALID_REQUEST', `Invalid request: ${summary}${more}.`, { fields });
  return new AppError('VALIDATION_ERROR', `Validation failed: ${summary}${more}.`, { fields });
}
