import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderInvoice, type InvoiceDocumentInput } from '../../server/reports/render-invoice.js';
import type { TInvoice, TInvoiceLine } from '../../shared/schemas/billing.js';

const run = promisify(execFile);

const hasPoppler = await run('which', ['pdftotext']).then(
  () => true,
  () => false,
);
if (!hasPoppler) console.log('skipping invoice PDF text checks: pdftotext not found (apt-get install poppler-utils)');

/** A4, 50 pt margins left and right. */
const RIGHT_MARGIN = 595.28 - 50;
const THAI_FONT = '/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf';

const ISSUER = { name: 'Interview Service GmbH', url: 'https://interviews.example.com' };

function invoice(overrides: Partial<TInvoice> = {}): TInvoice {
  const lines: TInvoiceLine[] = overrides.lines ?? [
    { description: 'Credits (1,000)', quantity: 1000, unitAmount: 1, amount: 1000 },
    { description: 'Interview minutes beyond the plan', quantity: 14.3333, unitAmount: 15, amount: 215 },
    { description: 'Setup fee', quantity: 2.5, unitAmount: 8, amount: 19 },
  ];
  return {
    id: 'inv_01JTEST',
    number: 'INV-2026-000042',
    status: 'paid',
    kind: 'usage',
    amount: lines.reduce((sum, line) => sum + line.amount, 0),
    currency: 'usd',
    periodStart: '2026-11-01T00:00:00.000Z',
    periodEnd: '2026-12-01T00:00:00.000Z',
    lines,
    issuedAt: '2026-12-01T00:05:00.000Z',
    paidAt: '2026-12-02T10:00:00.000Z',
    createdAt: '2026-12-01T00:05:00.000Z',
    updatedAt: '2026-12-02T10:00:00.000Z',
    ...overrides,
  };
}

function input(overrides: Partial<TInvoice> = {}, organizationName = 'Acme Research Ltd.'): InvoiceDocumentInput {
  return { invoice: invoice(overrides), organization: { id: 'org_01JACME', name: organizationName }, issuer: ISSUER };
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

let dir: string;
let count = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'invoice-pdf-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function renderToFile(document: InvoiceDocumentInput, fonts?: Parameters<typeof renderInvoice>[1]): Promise<string> {
  const file = path.join(dir, `invoice-${++count}.pdf`);
  await writeFile(file, await collect(renderInvoice(document, fonts)));
  return file;
}

/** The text in reading order, runs of whitespace (line wraps included) as one space. */
async function textOf(file: string): Promise<string> {
  const { stdout } = await run('pdftotext', [file, '-']);
  return stdout.replace(/[\u202A-\u202E]/g, '').replace(/\s+/g, ' ');
}

async function pagesOf(file: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [file]);
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
}

/** The right edge of every word drawn, per page. */
async function wordRightEdges(file: string): Promise<number[]> {
  const { stdout } = await run('pdftotext', ['-bbox', file, '-']);
  return [...stdout.matchAll(/xMax="([\d.]+)"/g)].map((match) => Number(match[1]));
}

describe('renderInvoice', () => {
  it('writes a PDF', async () => {
    const pdf = await collect(renderInvoice(input()));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
  });

  it('the same invoice renders to the same bytes', async () => {
    const [first, second] = await Promise.all([collect(renderInvoice(input())), collect(renderInvoice(input()))]);
    expect(first.equals(second)).toBe(true);
  });

  it.skipIf(!hasPoppler)('a paid invoice shows its number, parties, lines, amounts, status, dates and the amount paid', async () => {
    const text = await textOf(await renderToFile(input()));
    for (const expected of [
      'Invoice',
      'INV-2026-000042',
      'Paid',
      'Billed to Acme Research Ltd. org_01JACME',
      'From Interview Service GmbH https://interviews.example.com',
      'Credits (1,000)',
      'Interview minutes beyond the plan',
      'Setup fee',
      '$10.00',
      '$2.15',
      '$0.19',
      '$0.15',
      '$12.34',
      'Date of issue',
      '1 Dec 2026',
      'Date paid',
      '2 Dec 2026',
      '$12.34 paid on 2 Dec 2026',
      'Amount paid',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Amount due');
  });

  it.skipIf(!hasPoppler)('the billing period ends the day before the exclusive periodEnd (UTC)', async () => {
    const text = await textOf(await renderToFile(input()));
    expect(text).toContain('Billing period');
    expect(text).toContain('1 Nov 2026 – 30 Nov 2026');
  });

  it.skipIf(!hasPoppler)('quantities show up to four decimals without trailing zeros', async () => {
    const text = await textOf(await renderToFile(input()));
    expect(text).toContain('1,000');
    expect(text).toContain('14.3333');
    expect(text).toMatch(/(^| )2\.5( |$)/);
    expect(text).not.toContain('2.5000');
  });

  it.skipIf(!hasPoppler)('an open invoice shows the amount due and no paid date', async () => {
    const text = await textOf(await renderToFile(input({ status: 'open', paidAt: null })));
    expect(text).toContain('Open');
    expect(text).toContain('Amount due $12.34');
    expect(text).toContain('$12.34 due');
    expect(text).not.toContain('Date paid');
    expect(text).not.toContain('Amount paid');
  });

  it.skipIf(!hasPoppler)('draft and void invoices are labelled as such', async () => {
    const draft = await textOf(await renderToFile(input({ status: 'draft', paidAt: null })));
    const voided = await textOf(await renderToFile(input({ status: 'void', paidAt: null })));
    expect(draft).toContain('Draft');
    expect(voided).toContain('Void');
  });

  it.skipIf(!hasPoppler)('a JPY invoice counts whole yen: amount 1200 is ¥1,200', async () => {
    const lines = [{ description: 'Credits (120)', quantity: 120, unitAmount: 10, amount: 1200 }];
    const text = await textOf(await renderToFile(input({ currency: 'jpy', amount: 1200, lines })));
    expect(text).toContain('¥1,200');
    expect(text).toContain('¥10');
    expect(text).not.toContain('¥12.00');
  });

  it.skipIf(!hasPoppler)('sets the document title, author and creation date', async () => {
    const { stdout } = await run('pdfinfo', ['-isodates', await renderToFile(input())]);
    expect(stdout).toMatch(/^Title:\s+Invoice INV-2026-000042$/m);
    expect(stdout).toMatch(/^Author:\s+Interview Service GmbH$/m);
    expect(stdout).toMatch(/^CreationDate:\s+2026-12-01T00:05:00(Z|\+00:?00)?$/m);
  });

  it.skipIf(!hasPoppler)('a 200-character organization name and description wrap within the page', async () => {
    const name = `Acme ${'Research Cooperative of the Northern Baltic '.repeat(5)}`.slice(0, 199).trimEnd() + 'X';
    const description = `${'Interview minutes, long campaign description '.repeat(5)}`.slice(0, 199).trimEnd() + 'Y';
    const lines = [{ description, quantity: 3, unitAmount: 100, amount: 300 }];
    const file = await renderToFile(input({ lines, amount: 300 }, name));
    const text = await textOf(file);
    expect(text).toContain(name);
    expect(text).toContain(description);
    expect(Math.max(...(await wordRightEdges(file)))).toBeLessThanOrEqual(RIGHT_MARGIN + 0.5);
    expect(await pagesOf(file)).toBe(1);
  });

  it.skipIf(!hasPoppler)('a description of one unbroken 200-character word is cut to its column', async () => {
    const word = 'x'.repeat(200);
    const file = await renderToFile(input({ lines: [{ description: word, quantity: 1, unitAmount: 5, amount: 5 }], amount: 5 }));
    expect((await textOf(file)).replace(/ /g, '')).toContain(word);
    expect(Math.max(...(await wordRightEdges(file)))).toBeLessThanOrEqual(RIGHT_MARGIN + 0.5);
  });

  it.skipIf(!hasPoppler)('Greek, Cyrillic and Arabic text comes out as written', async () => {
    const lines = [
      { description: 'Η εξυπηρέτηση πελατών', quantity: 1, unitAmount: 100, amount: 100 },
      { description: 'Доставка заняла два дня', quantity: 1, unitAmount: 100, amount: 100 },
    ];
    // Without lam-alef, whose ligature poppler extracts out of order.
    const file = await renderToFile(input({ lines, amount: 200 }, 'شركة بحوث مرحبا'));
    const text = await textOf(file);
    expect(text).toContain('Η εξυπηρέτηση πελατών');
    expect(text).toContain('Доставка заняла два дня');
    expect(text).toContain('شركة بحوث مرحبا');
  });

  it('Chinese text, with or without a font that has it, never fails the render', async () => {
    const name = '北京市朝阳区调研咨询有限公司'.repeat(14);
    const lines = [{ description: `面试分钟数（十一月）${'中文描述'.repeat(40)}`, quantity: 1, unitAmount: 100, amount: 100 }];
    const pdf = await collect(renderInvoice(input({ lines, amount: 100 }, name)));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    if (hasPoppler) {
      const file = path.join(dir, 'chinese.pdf');
      await writeFile(file, pdf);
      expect(await textOf(file)).toContain('$1.00');
      expect(Math.max(...(await wordRightEdges(file)))).toBeLessThanOrEqual(RIGHT_MARGIN + 0.5);
    }
  });

  it.skipIf(!hasPoppler || !existsSync(THAI_FONT))('a fallback font draws what DejaVu Sans lacks', async () => {
    const file = await renderToFile(input({}, 'ขอบคุณมาก Research'), { fallback: THAI_FONT });
    expect(await textOf(file)).toContain('ขอบคุณมาก Research');
    const { stdout } = await run('pdffonts', [file]);
    expect(stdout).toMatch(/NotoSansThai-Regular\s.*\syes\s/);
  });

  it.skipIf(!hasPoppler)('80 lines flow onto further pages, each with the table header', async () => {
    const lines = Array.from({ length: 80 }, (_, index) => ({
      description: `Interview minutes, campaign ${index + 1}`,
      quantity: 10,
      unitAmount: 25,
      amount: 250,
    }));
    const file = await renderToFile(input({ lines, amount: 20_000, status: 'open', paidAt: null }));
    const pages = await pagesOf(file);
    expect(pages).toBeGreaterThan(1);
    for (let page = 1; page <= pages; page++) {
      const { stdout } = await run('pdftotext', ['-f', String(page), '-l', String(page), file, '-']);
      const text = stdout.replace(/\s+/g, ' ');
      if (page < pages || text.includes('campaign')) expect(text).toMatch(/Description Qty Unit price Amount|Description.*Qty.*Unit price.*Amount/);
      expect(text).toContain(`Page ${page} of ${pages}`);
    }
    const text = await textOf(file);
    for (const line of lines) expect(text).toMatch(new RegExp(`${line.description}( |$)`));
    expect(text).toContain('Amount due $200.00');
  });
});
