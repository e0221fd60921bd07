import { describe, expect, it } from 'vitest';
import { INVITE_LIMITS, ZBulkCreateInvitesInput } from '../../shared/schemas/invites.js';
import { batchesOf, batchIdempotencyKey, canonicalJson, parseCsv, readInviteFile } from '../../web/dashboard/src/participants/csv-invites.js';

const cells = (text: string) => parseCsv(text).rows.map((row) => row.cells);

describe('parseCsv (RFC 4180)', () => {
  it('splits fields on commas and lines on CRLF, LF and CR', () => {
    expect(cells('a,b\r\nc,d\ne,f\rg,h')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
  });

  it('keeps commas, line breaks and doubled quotes inside quoted fields', () => {
    const parsed = parseCsv('name,note\n"Doe, Jane","said ""hi""\nthen left"\nnext,row\n');
    expect(parsed.rows).toEqual([
      { line: 1, cells: ['name', 'note'] },
      { line: 2, cells: ['Doe, Jane', 'said "hi"\nthen left'] },
      { line: 4, cells: ['next', 'row'] },
    ]);
  });

  it('drops a byte order mark, a trailing newline and blank lines, but keeps empty fields', () => {
    expect(cells('\uFEFFemail,name\n\na@example.com,\n')).toEqual([
      ['email', 'name'],
      ['a@example.com', ''],
    ]);
  });

  it('a quoted empty field on its own line is a row', () => {
    expect(cells('x\n""\n')).toEqual([['x'], ['']]);
  });

  it('an unclosed quote is reported with its line', () => {
    expect(parseCsv('email\n"a@example.com\nb@example.com').error).toBe('A quoted field that starts on line 2 is never closed (a missing ").');
  });
});

describe('readInviteFile', () => {
  it('maps email, name and language (any case) and makes every other column metadata', () => {
    const file = readInviteFile('Email,Name,LANGUAGE,plan,region\nana@example.com,Ana,nl,pro,EU\nbo@example.com,,,,\n');
    expect(file.fileProblems).toEqual([]);
    expect(file.metadataColumns).toEqual(['plan', 'region']);
    expect(file.rows).toEqual([
      { line: 2, item: { email: 'ana@example.com', name: 'Ana', language: 'nl', metadata: { plan: 'pro', region: 'EU' } }, problems: [] },
      { line: 3, item: { email: 'bo@example.com' }, problems: [] },
    ]);
  });

  it("reports each bad row with the API schema's own messages, by column", () => {
    const file = readInviteFile('email,language,plan\nnot-an-address,en,pro\nok@example.com,xx-nonsense,pro\n');
    expect(file.rows[0]!.problems).toEqual([{ column: 'email', message: 'must be an email address' }]);
    expect(file.rows[1]!.problems.map((problem) => problem.column)).toEqual(['language']);
  });

  it('a metadata key over 40 characters is named by its column', () => {
    const long = 'k'.repeat(41);
    const file = readInviteFile(`email,${long}\na@example.com,v\n`);
    expect(file.rows[0]!.problems.map((problem) => problem.column)).toEqual([long]);
  });

  it('a repeated address (any case) is reported on the later line', () => {
    const file = readInviteFile('email\nana@example.com\nANA@example.com\n');
    expect(file.rows[0]!.problems).toEqual([]);
    expect(file.rows[1]!.problems).toEqual([{ column: 'email', message: 'duplicates the address on line 2' }]);
  });

  it('a row with more cells than the header is reported', () => {
    const file = readInviteFile('email\na@example.com,extra\n');
    expect(file.rows[0]!.problems).toEqual([{ column: 'row', message: 'has 2 cells but the header has 1 columns' }]);
  });

  it('an empty email cell is reported as the API would', () => {
    const file = readInviteFile('email,name\n,Ana\n');
    expect(file.rows[0]!.problems).toEqual([{ column: 'email', message: 'must be an email address' }]);
  });

  it('a file without an email column, an empty file and a header alone are file problems', () => {
    expect(readInviteFile('mail,name\nx,y\n').fileProblems).toEqual(['The header line has no "email" column (it has: mail, name).']);
    expect(readInviteFile('').fileProblems).toEqual(['The file is empty: it needs a header line with an email column.']);
    expect(readInviteFile('email\n').fileProblems).toEqual(['The file has a header line but no participants.']);
    expect(readInviteFile('email,Email\na@example.com,b@example.com\n').fileProblems).toEqual(['The column "email" appears twice in the header line.']);
  });

  it('rows without problems are accepted by the API schema of a bulk request', () => {
    const lines = Array.from({ length: 30 }, (_, index) => `p${index}@example.com,Person ${index},en,segment-${index % 3}`);
    const file = readInviteFile(`email,name,language,segment\n${lines.join('\n')}`);
    expect(file.rows.every((row) => row.problems.length === 0)).toBe(true);
    const parsed = ZBulkCreateInvitesInput.safeParse({ campaignId: 'cam_x', invites: file.rows.map((row) => row.item) });
    expect(parsed.success).toBe(true);
  });
});

describe('batches and their idempotency keys', () => {
  it('cuts at the bulk limit of 500', () => {
    const items = Array.from({ length: 1201 }, (_, index) => index);
    expect(batchesOf(items).map((batch) => batch.length)).toEqual([INVITE_LIMITS.maxBulk, INVITE_LIMITS.maxBulk, 201]);
    expect(batchesOf([])).toEqual([]);
  });

  it('the same batch gives the same key whatever the key order; another batch or campaign another key', async () => {
    const a = await batchIdempotencyKey('cam_1', { invites: [{ email: 'a@example.com', name: 'A' }], sendEmail: true });
    const same = await batchIdempotencyKey('cam_1', { sendEmail: true, invites: [{ name: 'A', email: 'a@example.com' }] });
    const otherBatch = await batchIdempotencyKey('cam_1', { invites: [{ email: 'b@example.com', name: 'A' }], sendEmail: true });
    const otherCampaign = await batchIdempotencyKey('cam_2', { invites: [{ email: 'a@example.com', name: 'A' }], sendEmail: true });
    expect(a).toBe(same);
    expect(a).toMatch(/^invites-bulk-cam_1-[0-9a-f]{64}$/);
    expect(new Set([a, otherBatch, otherCampaign]).size).toBe(3);
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
  });
});
