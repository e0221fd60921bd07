import type { core, ZodError } from 'zod';
import type { FieldError } from './error-codes.js';

// zod issues as the API reports them: field paths as clients write them and "must …" messages.
// Shared so the dashboard's live check shows the very messages the API answers with.

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

/**
 * Each zod issue as the API lists it in `details.fields`; `missing` says whether a required field
 * outside any array item was absent (the API's 400 rather than 422).
 */
export function fieldErrorsFromZod(error: ZodError, rawInput: unknown, source: 'body' | 'query' = 'body'): { fields: FieldError[]; anyMissing: boolean } {
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
      (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') && valueAt(rawInput, issue.path) === undefined;
    // Inside an array item the field's list is present and one of its items breaks the item's
    // rule: 422 naming the item (`invites[3].email`), like any other bad item.
    anyMissing ||= missing && !issue.path.some((segment) => typeof segment === 'number');
    fields.push({ path: formatPath(issue.path), message: issueMessage(issue, missing) });
  }
  return { fields, anyMissing };
}
