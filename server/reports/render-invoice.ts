import type { TInvoice } from '../../shared/schemas/billing.js';
import { cleanText, createDocument, createTypesetter, PAGE_HEIGHT, PAGE_WIDTH, type Line, type ReportFonts, type TextStyle } from './pdf-typesetting.js';

/*
 * An invoice laid out like Stripe's: title and status, the facts of the invoice, who issues it
 * and who pays it, the lines, the totals. Text is wrapped by pdf-typesetting.ts rather than by
 * pdfkit so that a table row knows its height before it is drawn (rows never split from their
 * numbers, the table header repeats on every page) and so that characters DejaVu Sans lacks fall
 * back to another font, or to a drawn box, instead of pdfkit's mis-measured missing glyph.
 */

// ---------------------------------------------------------------------------------------------
// Page geometry (A4, points) and colours.

const MARGIN_X = 50;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
const TOP = 56;
const FOOTER_RULE_Y = PAGE_HEIGHT - 40;
const CONTENT_BOTTOM = FOOTER_RULE_Y - 16;
const LEADING = 1.4;

const COLORS = { text: '#111827', secondary: '#374151', muted: '#6B7280', rule: '#E5E7EB', strongRule: '#D1D5DB' } as const;

const STATUS_BADGES: Record<TInvoice['status'], { label: string; fill: string; color: string }> = {
  paid: { label: 'Paid', fill: '#D1FAE5', color: '#065F46' },
  open: { label: 'Open', fill: '#DBEAFE', color: '#1E40AF' },
  draft: { label: 'Draft', fill: '#F3F4F6', color: '#374151' },
  void: { label: 'Void', fill: '#FEE2E2', color: '#991B1B' },
};

/** Table columns: the description takes what the right-aligned numbers leave. */
const COLUMN_GAP = 14;
const QTY_WIDTH = 50;
const UNIT_WIDTH = 84;
const AMOUNT_WIDTH = 84;
const DESCRIPTION_WIDTH = CONTENT_WIDTH - QTY_WIDTH - UNIT_WIDTH - AMOUNT_WIDTH - 3 * COLUMN_GAP;

// ---------------------------------------------------------------------------------------------
// Formatting.

const dateFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

/** "1 Nov 2026" (UTC); a value that is no date is shown as given rather than failing the invoice. */
function formatDate(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? String(value) : dateFormat.format(date);
}

/** The period's last day: `periodEnd` is exclusive. */
function formatPeriod(start: string, end: string): string {
  const startDate = new Date(start);
  const lastInstant = new Date(new Date(end).getTime() - 1);
  return `${formatDate(start)} – ${formatDate(lastInstant < startDate ? startDate : lastInstant)}`;
}

/** Minor units to "$12.34" or "¥1,200": the currency's own fraction digits say what a unit is. */
function moneyFormatter(currency: string): (minor: number) => string {
  const code = currency.toUpperCase();
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
  } catch {
    // Not a well-formed ISO 4217 code: still an invoice, with the code spelled out.
    return (minor) => `${(minor / 100).toFixed(2)} ${code}`;
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return (minor) => format.format(minor / 10 ** digits);
}

/** The height of a line in `style`: room is reserved for lines not typeset yet. */
function lineHeight(style: TextStyle): number {
  return style.size * LEADING;
}

function oneLine(text: string): string {
  return cleanText(text).replace(/\n+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------
// The document.

export interface InvoiceDocumentInput {
  invoice: TInvoice;
  organization: { id: string; name: string };
  /** Who issues the invoice (the operator of this service). */
  issuer: { name: string; url: string };
}

/** A block of wrapped lines at one x, drawn together. */
interface Cell {
  x: number;
  width: number;
  lines: Line[];
  align?: 'left' | 'right';
}

/**
 * Writes the invoice and ends the document: the caller pipes the returned stream to a response
 * or a file. Fonts are read from disk on the first call only; `fonts.fallback` is the same
 * PDF_FALLBACK_FONT the session report takes, for characters DejaVu Sans lacks (CJK).
 */
export function renderInvoice(input: InvoiceDocumentInput, fonts?: ReportFonts): PDFKit.PDFDocument {
  const { invoice, organization, issuer } = input;
  const money = moneyFormatter(invoice.currency);
  const number = oneLine(invoice.number);
  const issuedAt = new Date(invoice.issuedAt);

  const doc = createDocument({
    lang: 'en',
    info: {
      Title: `Invoice ${number}`,
      Author: oneLine(issuer.name),
      Creator: oneLine(issuer.name),
      // Fixed dates keep a re-rendered invoice the same document (pdfkit would take "now").
      ...(Number.isNaN(issuedAt.getTime()) ? {} : { CreationDate: issuedAt, ModDate: issuedAt }),
    },
  });
  // Invoices carry no language: a Noto CJK collection lends its simplified Chinese face.
  const type = createTypesetter(doc, { leading: LEADING, fonts });
  /** Every text of an invoice is in one style. */
  const wrap = (text: string, style: TextStyle, width: number): Line[] => type.wrap([{ text, style }], width);

  const body: TextStyle = { size: 9.5, color: COLORS.text };
  const bodyBold: TextStyle = { ...body, bold: true };
  const muted: TextStyle = { size: 9.5, color: COLORS.muted };
  const small: TextStyle = { size: 8, color: COLORS.muted };
  const smallBold: TextStyle = { ...small, bold: true };

  const rule = (top: number, color: string = COLORS.rule, x = MARGIN_X, width = CONTENT_WIDTH): void => {
    doc
      .moveTo(x, top)
      .lineTo(x + width, top)
      .lineWidth(0.75)
      .strokeColor(color)
      .stroke();
  };
  const drawCells = (cells: Cell[], top: number): number => {
    let height = 0;
    for (const cell of cells) {
      let y = top;
      for (const line of cell.lines) {
        type.draw(line, cell.x, cell.width, y, cell.align);
        y += line.height;
      }
      height = Math.max(height, y - top);
    }
    return height;
  };

  // pdfkit has opened the first page.
  let y = TOP;

  // --- Title and status ----------------------------------------------------------------------
  const badge = STATUS_BADGES[invoice.status];
  const title = wrap('Invoice', { size: 24, color: COLORS.text, bold: true }, CONTENT_WIDTH)[0]!;
  type.draw(title, MARGIN_X, CONTENT_WIDTH, y);
  const badgeLine = wrap(badge.label, { size: 8.5, color: badge.color, bold: true }, 100)[0]!;
  const badgeHeight = 17;
  const badgeWidth = badgeLine.width + 16;
  const badgeX = MARGIN_X + title.width + 12;
  const badgeTop = y + (title.height - badgeHeight) / 2 + 1;
  doc.roundedRect(badgeX, badgeTop, badgeWidth, badgeHeight, 4).fill(badge.fill);
  type.draw(badgeLine, badgeX + 8, badgeLine.width, badgeTop + (badgeHeight - badgeLine.height) / 2);
  y += title.height + 14;

  // --- Facts ---------------------------------------------------------------------------------
  const labelWidth = 96;
  const facts: [string, string][] = [
    ['Invoice number', number],
    ['Date of issue', formatDate(invoice.issuedAt)],
    ...(invoice.status === 'paid' && invoice.paidAt ? [['Date paid', formatDate(invoice.paidAt)] as [string, string]] : []),
    ['Billing period', formatPeriod(invoice.periodStart, invoice.periodEnd)],
  ];
  for (const [label, value] of facts) {
    y += drawCells(
      [
        { x: MARGIN_X, width: labelWidth, lines: wrap(label, muted, labelWidth) },
        { x: MARGIN_X + labelWidth, width: CONTENT_WIDTH - labelWidth, lines: wrap(value, body, CONTENT_WIDTH - labelWidth) },
      ],
      y,
    );
  }
  y += 22;

  // --- From and billed to --------------------------------------------------------------------
  const partyGap = 24;
  const partyWidth = (CONTENT_WIDTH - partyGap) / 2;
  const party = (x: number, heading: string, name: string, detail: string): Cell[] => [
    {
      x,
      width: partyWidth,
      lines: [...wrap(heading, bodyBold, partyWidth), ...wrap(oneLine(name), body, partyWidth), ...wrap(oneLine(detail), muted, partyWidth)],
    },
  ];
  y += drawCells(
    [...party(MARGIN_X, 'From', issuer.name, issuer.url), ...party(MARGIN_X + partyWidth + partyGap, 'Billed to', organization.name, organization.id)],
    y,
  );
  y += 24;

  // --- Headline ------------------------------------------------------------------------------
  const total = money(invoice.amount);
  const paidDate = invoice.paidAt ? formatDate(invoice.paidAt) : null;
  const summary = {
    paid: paidDate ? `${total} paid on ${paidDate}` : `${total} paid`,
    open: `${total} due`,
    draft: `${total} due`,
    void: `${total} void`,
  }[invoice.status];
  y += drawCells([{ x: MARGIN_X, width: CONTENT_WIDTH, lines: wrap(summary, { size: 15, color: COLORS.text, bold: true }, CONTENT_WIDTH) }], y);
  y += 20;

  // --- Lines ---------------------------------------------------------------------------------
  const qtyX = MARGIN_X + DESCRIPTION_WIDTH + COLUMN_GAP;
  const unitX = qtyX + QTY_WIDTH + COLUMN_GAP;
  const amountX = unitX + UNIT_WIDTH + COLUMN_GAP;
  const rowGap = 6;

  const tableHeader = (): void => {
    const height = drawCells(
      [
        { x: MARGIN_X, width: DESCRIPTION_WIDTH, lines: wrap('Description', smallBold, DESCRIPTION_WIDTH) },
        { x: qtyX, width: QTY_WIDTH, lines: wrap('Qty', smallBold, QTY_WIDTH), align: 'right' },
        { x: unitX, width: UNIT_WIDTH, lines: wrap('Unit price', smallBold, UNIT_WIDTH), align: 'right' },
        { x: amountX, width: AMOUNT_WIDTH, lines: wrap('Amount', smallBold, AMOUNT_WIDTH), align: 'right' },
      ],
      y,
    );
    y += height + 4;
    rule(y, COLORS.strongRule);
    y += rowGap + 2;
  };
  const continuationPage = (): void => {
    doc.addPage();
    y = TOP;
    const heading = wrap(`Invoice ${number} (continued)`, small, CONTENT_WIDTH);
    y += drawCells([{ x: MARGIN_X, width: CONTENT_WIDTH, lines: heading }], y) + 12;
  };

  tableHeader();
  const rows: Cell[][] = invoice.lines.map((line) => [
    { x: MARGIN_X, width: DESCRIPTION_WIDTH, lines: wrap(line.description, body, DESCRIPTION_WIDTH) },
    { x: qtyX, width: QTY_WIDTH, lines: wrap(quantityFormat.format(line.quantity), body, QTY_WIDTH), align: 'right' },
    { x: unitX, width: UNIT_WIDTH, lines: wrap(money(line.unitAmount), body, UNIT_WIDTH), align: 'right' },
    { x: amountX, width: AMOUNT_WIDTH, lines: wrap(money(line.amount), body, AMOUNT_WIDTH), align: 'right' },
  ]);
  if (rows.length === 0) rows.push([{ x: MARGIN_X, width: DESCRIPTION_WIDTH, lines: wrap('No items', muted, DESCRIPTION_WIDTH) }]);
  const bodyLine = lineHeight(body);
  /** Where rows start on a continuation page, below its heading and the table header. */
  const continuationTop = TOP + lineHeight(small) + 12 + lineHeight(smallBold) + 4 + rowGap + 2;
  for (const [index, cells] of rows.entries()) {
    const count = Math.max(...cells.map((cell) => cell.lines.length));
    // A row moves whole to the next page when it fits on one; a longer one is cut between lines.
    if (y + count * bodyLine > CONTENT_BOTTOM && continuationTop + count * bodyLine <= CONTENT_BOTTOM) {
      continuationPage();
      tableHeader();
    }
    for (let at = 0; at < count; at++) {
      if (y + bodyLine > CONTENT_BOTTOM) {
        continuationPage();
        tableHeader();
      }
      drawCells(
        cells.map((cell) => ({ ...cell, lines: cell.lines.slice(at, at + 1) })),
        y,
      );
      y += bodyLine;
    }
    if (index < rows.length - 1) y += rowGap;
  }
  y += rowGap;

  // --- Totals --------------------------------------------------------------------------------
  const totalsWidth = UNIT_WIDTH + AMOUNT_WIDTH + COLUMN_GAP + QTY_WIDTH + COLUMN_GAP;
  const totalsX = MARGIN_X + CONTENT_WIDTH - totalsWidth;
  const subtotal = invoice.lines.reduce((sum, line) => sum + line.amount, 0);
  const totals: { label: string; value: string; style: TextStyle; ruleAbove: string }[] = [
    { label: 'Subtotal', value: money(subtotal), style: body, ruleAbove: COLORS.strongRule },
    { label: 'Total', value: total, style: body, ruleAbove: COLORS.rule },
    { label: invoice.status === 'paid' ? 'Amount paid' : 'Amount due', value: total, style: bodyBold, ruleAbove: COLORS.rule },
  ];
  const totalsRowHeight = 8 + bodyLine + 8;
  if (y + totals.length * totalsRowHeight > CONTENT_BOTTOM) continuationPage();
  for (const row of totals) {
    rule(y, row.ruleAbove, totalsX, totalsWidth);
    y += 8;
    const value = wrap(row.value, row.style, AMOUNT_WIDTH + UNIT_WIDTH / 2);
    const valueWidth = Math.max(...value.map((line) => line.width));
    y += drawCells(
      [
        { x: totalsX, width: totalsWidth - valueWidth - COLUMN_GAP, lines: wrap(row.label, row.style, totalsWidth - valueWidth - COLUMN_GAP) },
        { x: totalsX, width: totalsWidth, lines: value, align: 'right' },
      ],
      y,
    );
    y += 8;
  }

  // --- Footers, now that the page count is known ---------------------------------------------
  const range = doc.bufferedPageRange();
  for (let page = range.start; page < range.start + range.count; page++) {
    doc.switchToPage(page);
    rule(FOOTER_RULE_Y);
    const pageLabel = wrap(`Page ${page - range.start + 1} of ${range.count}`, small, CONTENT_WIDTH)[0]!;
    const left = wrap(`${number} · ${summary}`, small, CONTENT_WIDTH - pageLabel.width - COLUMN_GAP)[0]!;
    type.draw(left, MARGIN_X, CONTENT_WIDTH, FOOTER_RULE_Y + 8);
    type.draw(pageLabel, MARGIN_X, CONTENT_WIDTH, FOOTER_RULE_Y + 8, 'right');
  }
  doc.end();
  return doc;
}
