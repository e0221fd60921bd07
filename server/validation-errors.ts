import type { core, ZodError } from 'zod';
import type { FieldError } from '../shared/error-codes.js';
import { AppError } from './errors.js';

// zod issues as the API reports them: field paths as clients write them, "must …" messages, and
// the split between 400 INVALID_REQUEST and 422 VALIDATION_ERROR (design.md "Errors").

/** `questions[2].options` style paths, as clients write them. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

const TYPE_NAMES: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  date: 'a date',
};

function sizeMessage(issue: core.$ZodIssueTooBig | core.$ZodIssueTooSmall): string {
  const big = issue.code === 'too_big';
  const bound = String(big ? (issue as core.$ZodIssueTooBig).maximum : (issue as core.$ZodIssueTooSmall).minimum);
  const comparison = issue.inclusive === false ? (big ? 'less than' : 'greater than') : big ? 'at most' : 'at least';
  if (issue.origin === 'string') return `must be ${comparison} ${bound} characters`;
  if (issue.origin === 'array' || issue.origin === 'set') return `must have ${comparison} ${bound} items`;
  return `must be ${comparison} ${bound}`;
}

/** Our own schema messages are kept; zod's generic ones are rephrased as "must …" sentences. */
function issueMessage(issue: core.$ZodIssue, missing: boolean): string {
  if (missing) return 'is required';
  if (!/^(Invalid|Too (big|small))/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_big':
    case 'too_small':
      return sizeMessage(issue);
    case 'invalid_key':
      return issue.issues[0] ? issueMessage(issue.issues[0], false) : 'is not a valid key';
    case 'invalid_union': {
      const expected = issue.errors.flat().flatMap((branch) => (branch.code === 'invalid_type' ? [TYPE_NAMES[branch.expected] ?? branch.expected] : []));
      const names = [...new Set(expected)];
      if (names.length === 0) return 'is not valid';
      return `must be ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}`;
    }
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

/** Where a procedure's raw input came from: the split between 400 and 422 depends on it. */
export type InputSource = 'body' | 'query';

/**
 * design.md "Errors": 400 INVALID_REQUEST when a required field is missing or a query
 * parameter is bad; 422 VALIDATION_ERROR when present body fields break a rule (an array item
 * lacking a field is a bad item of a present array: 422). Both list
 * every offending field in `details.fields`.
 */
export function errorFromZod(error: ZodError, rawInput: unknown, source: InputSource): AppError {
  const fields: FieldError[] = [];
  let anyMissing = false;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        fields.push({ path: formatPath([...issue.path, key]), message: source === 'query' ? 'is not a known query parameter' : 'is not a known field' });
      }
      continue;
    }
    // An absent enum (invalid_value) or union (invalid_union) member is as missing as an absent string.
    const missing =
      (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') &&
      valueAt(rawInput, issue.path) === undefined;
    // Inside an array item the field's list is present and one of its items breaks the item's
    // rule: 422 naming the item (`invites[3].email`), like any other bad item.
    anyMissing ||= missing && !issue.path.some((segment) => typeof segment === 'number');
    fields.push({ path: formatPath(issue.path), message: issueMessage(issue, missing) });
  }
  const summary = fields
    .slice(0, 3)
    .map((field) => `${field.path || 'body'} ${field.message}`)
    .join('; ');
  const more = fields.length > 3 ? ` (and ${fields.length - 3} more)` : '';
  if (source === 'query') return new AppError('INVALID_REQUEST', `Invalid query parameters: ${summary}${more}.`, { fields });
  if (anyMissing) return new AppError('INVALID_REQUEST', `Invalid request: ${summary}${more}.`, { fields });
  return new AppError('VALIDATION_ERROR', `Validation failed: ${summary}${more}.`, { fields });
}
