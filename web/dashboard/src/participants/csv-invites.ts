import { z } from 'zod';
import { INVITE_LIMITS, ZBulkInviteItem } from '../../../../shared/schemas/invites.js';

/**
 * A participants file read in the browser, checked with the API's own schemas before anything is
 * sent: the same rules and the same field messages as the server's 422, per row. Pure functions,
 * so the rules are tested without a browser.
 */

/**
 * RFC 4180 CSV: fields separated by commas, quoted fields may hold commas, line breaks and `""`
 * (one quote); lines end in CRLF, LF or CR. A leading byte order mark is dropped, and lines with
 * no content at all (a trailing newline, a blank line) are left out. An unclosed quote is an error,
 * since guessing where the field ends would shift every later column.
 */
export function parseCsv(text: string): { rows: { line: number; cells: string[] }[]; error?: string } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let field = '';
  let quoted = false;
  let fieldWasQuoted = false;
  let line = 1;
  let rowLine = 1;
  const endRow = () => {
    cells.push(field);
    if (cells.length > 1 || cells[0] !== '' || fieldWasQuoted) rows.push({ line: rowLine, cells });
    cells = [];
    field = '';
    fieldWasQuoted = false;
  };
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!;
    if (quoted) {
      if (char === '"') {
        if (source[index + 1] === '"') {
          field += '"';
          index++;
        } else quoted = false;
      } else {
        if (char === '\n' || (char === '\r' && source[index + 1] !== '\n')) line++;
        field += char;
      }
      continue;
    }
    if (char === '"' && field === '') {
      quoted = true;
      fieldWasQuoted = true;
    } else if (char === ',') {
      cells.push(field);
      field = '';
      fieldWasQuoted = false;
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && source[index + 1] === '\n') index++;
      endRow();
      line++;
      rowLine = line;
    } else field += char;
  }
  if (quoted) return { rows, error: `A quoted field that starts on line ${rowLine} is never closed (a missing ").` };
  if (field !== '' || cells.length > 0 || fieldWasQuoted) endRow();
  return { rows };
}

export interface FieldProblem {
  /** The column at fault (`email`, `name`, `language`, a metadata column) or `row`. */
  column: string;
  message: string;
}

export interface InviteRow {
  /** The row's line in the file (the header is line 1). */
  line: number;
  /** What is sent for the row: the API's bulk invite item. */
  item: z.input<typeof ZBulkInviteItem>;
  problems: FieldProblem[];
}

export interface InviteFile {
  rows: InviteRow[];
  /** Problems of the file as a whole (no email column, an unclosed quote, nothing in it). */
  fileProblems: string[];
  metadataColumns: string[];
}

const KNOWN = ['email', 'name', 'language'] as const;

/**
 * The rows of a participants file as bulk invite items, each checked by `ZBulkInviteItem` (what
 * the API checks) and for an address that appears twice in the file (which the API refuses
 * within one request and which would invite one person twice across batches). Columns `email`,
 * `name` and `language` (any case) are the invite's; every other column is a metadata key,
 * with the cell's text as its value. Empty cells are left out, so an optional column may be blank.
 */
export function readInviteFile(text: string): InviteFile {
  const parsed = parseCsv(text);
  const fileProblems: string[] = parsed.error ? [parsed.error] : [];
  const [header, ...body] = parsed.rows;
  if (!header) return { rows: [], fileProblems: [...fileProblems, 'The file is empty: it needs a header line with an email column.'], metadataColumns: [] };
  const names = header.cells.map((cell) => cell.trim());
  const lower = names.map((name) => name.toLowerCase());
  if (!lower.includes('email')) fileProblems.push(`The header line has no "email" column (it has: ${names.join(', ') || 'nothing'}).`);
  const seen = new Set<string>();
  for (const name of lower) {
    if (name && seen.has(name)) fileProblems.push(`The column "${name}" appears twice in the header line.`);
    seen.add(name);
  }
  const metadataColumns = names.filter((name, index) => name !== '' && !(KNOWN as readonly string[]).includes(lower[index]!));
  if (body.length === 0 && fileProblems.length === 0) fileProblems.push('The file has a header line but no participants.');

  const firstLineByEmail = new Map<string, number>();
  const rows = body.map(({ line, cells }): InviteRow => {
    const problems: FieldProblem[] = [];
    if (cells.length > names.length) problems.push({ column: 'row', message: `has ${cells.length} cells but the header has ${names.length} columns` });
    const item: InviteRow['item'] = { email: '' };
    const metadata: Record<string, string> = {};
    names.forEach((name, index) => {
      const value = (cells[index] ?? '').trim();
      const known = lower[index];
      if (known === 'email') item.email = value;
      else if (value === '' || name === '') return;
      else if (known === 'name') item.name = value;
      else if (known === 'language') item.language = value;
      else metadata[name] = value;
    });
    if (Object.keys(metadata).length > 0) item.metadata = metadata;
    const checked = ZBulkInviteItem.safeParse(item);
    if (!checked.success) {
      for (const issue of checked.error.issues) problems.push({ column: columnOf(issue.path), message: issue.message });
    }
    const key = item.email.toLowerCase();
    const first = firstLineByEmail.get(key);
    if (item.email && first !== undefined) problems.push({ column: 'email', message: `duplicates the address on line ${first}` });
    else if (item.email) firstLineByEmail.set(key, line);
    return { line, item, problems };
  });
  return { rows, fileProblems, metadataColumns };
}

/** `['metadata', 'plan']` → `plan`: the column the researcher sees in their file. */
function columnOf(path: PropertyKey[]): string {
  if (path[0] === 'metadata') return path.length > 1 ? String(path[1]) : 'metadata columns';
  return path.length > 0 ? String(path[0]) : 'row';
}

/** Consecutive batches of at most the API's bulk limit (500 invites a request). */
export function batchesOf<T>(items: readonly T[], size: number = INVITE_LIMITS.maxBulk): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

/** JSON with object keys sorted, so one batch always hashes to one key whatever order the keys were built in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The `Idempotency-Key` of one batch: the campaign and a SHA-256 of exactly what is sent. The
 * same batch sent again (a retry after a lost answer, the same file chosen twice within the
 * server's 24 hours) is answered from the stored result instead of inviting anyone twice; a
 * different batch always gets a different key.
 */
export async function batchIdempotencyKey(campaignId: string, body: unknown): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalJson(body)));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `invites-bulk-${campaignId}-${hex}`;
}
