import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import type { TInvoice } from '../../shared/schemas/billing.js';
import type { ReportFonts } from './render-session-report.js';

/*
 * An invoice laid out like Stripe's: title and status, the facts of the invoice, who issues it
 * and who pays it, the lines, the totals. Text is wrapped here rather than by pdfkit so that a
 * table row knows its height before it is drawn (rows never split from their numbers, the table
 * header repeats on every page) and so that characters DejaVu Sans lacks fall back to another
 * font, or to a drawn box, instead of pdfkit's mis-measured missing glyph.
 */

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------
// Fonts: parsed once per process; pdfkit takes a parsed fontkit font wherever it takes a file.

/** The part of a fontkit font used here (fontkit ships no type declarations). */
interface FontkitFont {
  readonly postscriptName: string;
  hasGlyphForCodePoint(codePoint: number): boolean;
}

interface Fontkit {
  openSync(file: string): FontkitFont | { readonly fonts: FontkitFont[] };
}

/** Where Debian, Ubuntu and Alpine packages put fonts with CJK coverage (as the session report). */
const SYSTEM_FALLBACK_FONTS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf',
];

let dejaVu: { regular: FontkitFont; bold: FontkitFont } | undefined;
/** Per file; null when the file could not be read as a font. */
const fallbackCache = new Map<string, FontkitFont | null>();

function fontkit(): Fontkit {
  return require('fontkit') as Fontkit;
}

function loadDejaVu(): { regular: FontkitFont; bold: FontkitFont } {
  if (!dejaVu) {
    const dir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    const open = (file: string): FontkitFont => {
      const font = fontkit().openSync(path.join(dir, file));
      if ('fonts' in font) throw new Error(`${file} is a font collection`);
      return font;
    };
    dejaVu = { regular: open('DejaVuSans.ttf'), bold: open('DejaVuSans-Bold.ttf') };
  }
  return dejaVu;
}

function loadFallback(file: string): FontkitFont | null {
  if (!fallbackCache.has(file)) {
    let font: FontkitFont | null = null;
    try {
      const opened = fontkit().openSync(file);
      // Invoices carry no language: simplified Chinese is the face of a Noto CJK collection.
      font = 'fonts' in opened ? (opened.fonts.find((face) => face.postscriptName === 'NotoSansCJKsc-Regular') ?? opened.fonts[0] ?? null) : opened;
      if (font && typeof font.hasGlyphForCodePoint !== 'function') font = null;
    } catch {
      // An unreadable fallback only costs the glyphs it would have drawn.
      font = null;
    }
    fallbackCache.set(file, font);
  }
  return fallbackCache.get(file) ?? null;
}

function fallbackFonts(callerFallback: string | undefined): FontkitFont[] {
  const files = [...(callerFallback ? [callerFallback] : []), ...SYSTEM_FALLBACK_FONTS.filter((file) => file !== callerFallback && existsSync(file))];
  return files.map(loadFallback).filter((font): font is FontkitFont => font !== null);
}

// ---------------------------------------------------------------------------------------------
// Page geometry (A4, points) and colours.

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN_X = 50;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
const TOP = 56;
const FOOTER_RULE_Y = PAGE_HEIGHT - 40;
const CONTENT_BOTTOM = FOOTER_RULE_Y - 16;
const LEADING = 1.4;
/** DejaVu Sans ascender and descender, in em. */
const ASCENT = 0.928;
const DESCENT = 0.236;

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

/**
 * Control and invisible formatting characters (bidi overrides included) are dropped and lone
 * surrogates become U+FFFD: they would corrupt measuring or the order of the drawn words.
 */
function cleanText(text: string): string {
  return text
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g, '');
}

function oneLine(text: string): string {
  return cleanText(text).replace(/\n+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------
// Typesetting: text → words (break opportunities) → lines → visual order → drawn runs.

interface TextStyle {
  size: number;
  color: string;
  bold?: boolean;
}

type BidiClass = 'L' | 'R' | 'EN' | 'N';

/** A stretch of one font, as measured. */
interface Run {
  text: string;
  font: string;
  width: number;
}

interface Word {
  runs: Run[];
  width: number;
  bidi: BidiClass;
}

type LineItem = { kind: 'word'; word: Word } | { kind: 'space'; width: number };

interface Line {
  items: LineItem[];
  width: number;
  rtl: boolean;
  style: TextStyle;
}

const RTL_CHAR = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
const STRONG_LTR_CHAR = /[\p{L}\p{Mc}]/u;
/** Spaces a line may break at (no-break spaces are left out on purpose). */
const BREAKING_SPACES = /[ \u1680\u2000-\u2006\u2008-\u200A\u205F\u3000]+/u;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const NO_BREAK_BEFORE = /^[、。，．：；？！）」』】〕〉》…ー々,.!?:;)\]}”’]/u;
const JOINING = /^[\p{M}\u200C\u200D\uFE00-\uFE0F]/u;
const DIGIT = /\p{Nd}/u;
/** Drawn for a character no font has. */
const MISSING_GLYPH = '\u25A1';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function splitGraphemes(text: string): string[] {
  return Array.from(graphemes.segment(text), (part) => part.segment);
}

function bidiClassOf(text: string): BidiClass {
  for (const char of text) {
    if (RTL_CHAR.test(char) && !DIGIT.test(char)) return 'R';
    if (STRONG_LTR_CHAR.test(char)) return 'L';
  }
  return DIGIT.test(text) ? 'EN' : 'N';
}

/** Han, kana and the like run without spaces: a line may break between any two of them. */
function breakCjk(word: string): string[] {
  if (!CJK_CHAR.test(word)) return [word];
  const parts: string[] = [];
  let current = '';
  let previousCjk = false;
  for (const grapheme of splitGraphemes(word)) {
    const cjk = CJK_CHAR.test(grapheme);
    if (current && (cjk || previousCjk) && !NO_BREAK_BEFORE.test(grapheme)) {
      parts.push(current);
      current = '';
    }
    current += grapheme;
    previousCjk = cjk;
  }
  if (current) parts.push(current);
  return parts;
}

/**
 * Unicode bidi rules W7, N1, N2 and L2 applied to whole words: enough for a name or description
 * in a right-to-left script, mixed with Latin words and numbers. pdfkit shapes and reverses each
 * right-to-left word itself.
 */
function visualOrder(items: LineItem[], rtl: boolean): LineItem[] {
  if (!rtl && items.every((item) => item.kind === 'space' || item.word.bidi !== 'R')) return items;
  const base = rtl ? 1 : 0;
  const sos: 'L' | 'R' = rtl ? 'R' : 'L';
  let lastStrong = sos;
  const types = items.map((item): BidiClass => {
    if (item.kind === 'space') return 'N';
    const bidi = item.word.bidi;
    if (bidi === 'L' || bidi === 'R') lastStrong = bidi;
    if (bidi === 'EN') return lastStrong === 'L' ? 'L' : 'EN';
    return bidi;
  });
  const strength = (type: BidiClass | undefined): 'L' | 'R' | null => (type === 'L' ? 'L' : type === 'R' || type === 'EN' ? 'R' : null);
  const levels = types.map((type, index) => {
    let resolved = type;
    if (type === 'N') {
      let before: 'L' | 'R' | null = null;
      for (let i = index - 1; i >= 0 && !before; i--) before = strength(types[i]);
      let after: 'L' | 'R' | null = null;
      for (let i = index + 1; i < types.length && !after; i++) after = strength(types[i]);
      resolved = (before ?? sos) === (after ?? sos) ? (before ?? sos) : sos;
    }
    if (resolved === 'L') return base === 0 ? 0 : 2;
    if (resolved === 'R') return 1;
    // A number among right-to-left words keeps its own left-to-right order.
    return 2;
  });
  const order = items.map((_, index) => index);
  for (let level = Math.max(base, ...levels); level >= 1; level--) {
    for (let start = 0; start < order.length; ) {
      if ((levels[order[start]!] ?? 0) < level) {
        start++;
        continue;
      }
      let end = start;
      while (end < order.length && (levels[order[end]!] ?? 0) >= level) end++;
      order.splice(start, end - start, ...order.slice(start, end).reverse());
      start = end;
    }
  }
  return order.map((index) => items[index]!);
}

interface Typesetter {
  /** Lines of at most `width` (a word wider than that is cut between graphemes). */
  wrap(text: string, style: TextStyle, width: number): Line[];
  /** Draws a line with its top at `top`, aligned within [x, x + width]. */
  draw(line: Line, x: number, width: number, top: number, align?: 'left' | 'right'): void;
}

function lineHeight(style: TextStyle): number {
  return style.size * LEADING;
}

function createTypesetter(doc: PDFKit.PDFDocument, fonts: Record<string, FontkitFont>, chains: { regular: string[]; bold: string[] }): Typesetter {
  const measure = (text: string, font: string, size: number): number => doc.font(font).fontSize(size).widthOfString(text);
  const primaryOf = (style: TextStyle): string => (style.bold ? chains.bold[0]! : chains.regular[0]!);

  /** Splits by the first font that has each character, marks and joiners staying with their base. */
  const makeWord = (text: string, style: TextStyle): Word => {
    const chain = style.bold ? chains.bold : chains.regular;
    const primary = chain[0]!;
    const runs: { text: string; font: string }[] = [];
    for (const char of text) {
      const codePoint = char.codePointAt(0)!;
      const last = runs[runs.length - 1];
      let font: string | undefined;
      let drawn = char;
      if (codePoint < 0x80) {
        font = primary;
      } else if (last && JOINING.test(char)) {
        // A mark or joiner its base's font lacks is dropped rather than drawn as a box.
        if (!fonts[last.font]!.hasGlyphForCodePoint(codePoint)) continue;
        font = last.font;
      } else {
        font = chain.find((key) => fonts[key]!.hasGlyphForCodePoint(codePoint));
      }
      if (!font) {
        // pdfkit writes the missing glyph's width unscaled, so what follows would overlap it.
        font = primary;
        drawn = MISSING_GLYPH;
      }
      if (last && last.font === font) last.text += drawn;
      else runs.push({ text: drawn, font });
    }
    const measured = runs.map((run) => ({ ...run, width: measure(run.text, run.font, style.size) }));
    return { runs: measured, width: measured.reduce((sum, run) => sum + run.width, 0), bidi: bidiClassOf(text) };
  };

  const cutToWidth = (text: string, style: TextStyle, maxWidth: number): Word[] => {
    const pieces: Word[] = [];
    let current = '';
    for (const grapheme of splitGraphemes(text)) {
      if (current && makeWord(current + grapheme, style).width > maxWidth) {
        pieces.push(makeWord(current, style));
        current = grapheme;
      } else {
        current += grapheme;
      }
    }
    if (current) pieces.push(makeWord(current, style));
    return pieces;
  };

  const wrap = (text: string, style: TextStyle, maxWidth: number): Line[] => {
    const lines: Line[] = [];
    const space = measure(' ', primaryOf(style), style.size);
    for (const paragraph of cleanText(text).split('\n')) {
      const firstStrong = bidiClassOf(paragraph.replace(/\p{Nd}/gu, ''));
      const rtl = firstStrong === 'R';
      let items: LineItem[] = [];
      let width = 0;
      const push = (): void => {
        lines.push({ items, width, rtl, style });
        items = [];
        width = 0;
      };
      for (const token of paragraph.split(BREAKING_SPACES)) {
        if (!token) continue;
        breakCjk(token).forEach((piece, index) => {
          const gap = items.length > 0 && index === 0 ? space : 0;
          const whole = makeWord(piece, style);
          const words = whole.width > maxWidth ? cutToWidth(piece, style, maxWidth) : [whole];
          words.forEach((word, part) => {
            const before = part === 0 ? gap : 0;
            if (items.length > 0 && width + before + word.width > maxWidth) push();
            else if (before > 0) {
              items.push({ kind: 'space', width: before });
              width += before;
            }
            items.push({ kind: 'word', word });
            width += word.width;
          });
        });
      }
      push();
    }
    return lines;
  };

  const draw = (line: Line, x: number, boxWidth: number, top: number, align: 'left' | 'right' = 'left'): void => {
    const { style } = line;
    const baseline = top + (lineHeight(style) - style.size * (ASCENT + DESCENT)) / 2 + style.size * ASCENT;
    let cursor = align === 'right' || line.rtl ? x + boxWidth - line.width : x;
    // Left-to-right runs of one font are drawn as one string (so text extraction keeps its
    // spaces); right-to-left words one at a time, as pdfkit reverses each string it is given.
    let pending: { text: string; font: string; x: number } | null = null;
    let spaceAfterPending = false;
    const flush = (): void => {
      if (!pending) return;
      doc.font(pending.font).fontSize(style.size).fillColor(style.color);
      doc.text(pending.text, pending.x, baseline, { lineBreak: false, baseline: 'alphabetic' });
      pending = null;
    };
    for (const item of visualOrder(line.items, line.rtl)) {
      if (item.kind === 'space') {
        spaceAfterPending = pending !== null;
        cursor += item.width;
        continue;
      }
      const { word } = item;
      const runs = word.bidi === 'R' ? [...word.runs].reverse() : word.runs;
      runs.forEach((run, index) => {
        const joins =
          pending !== null &&
          word.bidi !== 'R' &&
          pending.font === run.font &&
          // The gap was measured as a space of the primary font: only that font may write it.
          (index > 0 || !spaceAfterPending || run.font === primaryOf(style));
        if (joins && pending) {
          pending.text += index === 0 && spaceAfterPending ? ` ${run.text}` : run.text;
        } else {
          flush();
          pending = { text: run.text, font: run.font, x: cursor };
        }
        spaceAfterPending = false;
        cursor += run.width;
        if (word.bidi === 'R') flush();
      });
    }
    flush();
  };

  return { wrap, draw };
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
  const base = loadDejaVu();
  const fallbacks = fallbackFonts(fonts?.fallback);
  const money = moneyFormatter(invoice.currency);
  const number = oneLine(invoice.number);
  const issuedAt = new Date(invoice.issuedAt);

  const doc = new PDFDocument({
    size: [PAGE_WIDTH, PAGE_HEIGHT],
    margins: { top: 0, bottom: 0, left: 0, right: 0 },
    bufferPages: true,
    // No Helvetica: every glyph drawn comes from an embedded font.
    font: '',
    displayTitle: true,
    lang: 'en',
    info: {
      Title: `Invoice ${number}`,
      Author: oneLine(issuer.name),
      Creator: oneLine(issuer.name),
      // Fixed dates keep a re-rendered invoice the same document (pdfkit would take "now").
      ...(Number.isNaN(issuedAt.getTime()) ? {} : { CreationDate: issuedAt, ModDate: issuedAt }),
    },
  });
  // pdfkit takes a parsed fontkit font where its types only list files and buffers.
  const fontTable: Record<string, FontkitFont> = { regular: base.regular, bold: base.bold };
  fallbacks.forEach((font, index) => (fontTable[`fallback${index}`] = font));
  for (const [key, font] of Object.entries(fontTable)) doc.registerFont(key, font as unknown as PDFKit.Mixins.PDFFontSource);
  const fallbackKeys = fallbacks.map((_, index) => `fallback${index}`);
  const type = createTypesetter(doc, fontTable, { regular: ['regular', ...fallbackKeys], bold: ['bold', 'regular', ...fallbackKeys] });

  const body: TextStyle = { size: 9.5, color: COLORS.text };
  const bodyBold: TextStyle = { ...body, bold: true };
  const muted: TextStyle = { size: 9.5, color: COLORS.muted };
  const small: TextStyle = { size: 8, color: COLORS.muted };
  const smallBold: TextStyle = { ...small, bold: true };

  const rule = (top: number, color: string = COLORS.rule, x = MARGIN_X, width = CONTENT_WIDTH): void => {
    doc.moveTo(x, top).lineTo(x + width, top).lineWidth(0.75).strokeColor(color).stroke();
  };
  const drawCells = (cells: Cell[], top: number): number => {
    let height = 0;
    for (const cell of cells) {
      let y = top;
      for (const line of cell.lines) {
        type.draw(line, cell.x, cell.width, y, cell.align);
        y += lineHeight(line.style);
      }
      height = Math.max(height, y - top);
    }
    return height;
  };

  // pdfkit has opened the first page.
  let y = TOP;

  // --- Title and status ----------------------------------------------------------------------
  const badge = STATUS_BADGES[invoice.status];
  const title = type.wrap('Invoice', { size: 24, color: COLORS.text, bold: true }, CONTENT_WIDTH)[0]!;
  type.draw(title, MARGIN_X, CONTENT_WIDTH, y);
  const badgeLine = type.wrap(badge.label, { size: 8.5, color: badge.color, bold: true }, 100)[0]!;
  const badgeHeight = 17;
  const badgeWidth = badgeLine.width + 16;
  const badgeX = MARGIN_X + title.width + 12;
  const badgeTop = y + (lineHeight(title.style) - badgeHeight) / 2 + 1;
  doc.roundedRect(badgeX, badgeTop, badgeWidth, badgeHeight, 4).fill(badge.fill);
  type.draw(badgeLine, badgeX + 8, badgeLine.width, badgeTop + (badgeHeight - lineHeight(badgeLine.style)) / 2);
  y += lineHeight(title.style) + 14;

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
        { x: MARGIN_X, width: labelWidth, lines: type.wrap(label, muted, labelWidth) },
        { x: MARGIN_X + labelWidth, width: CONTENT_WIDTH - labelWidth, lines: type.wrap(value, body, CONTENT_WIDTH - labelWidth) },
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
      lines: [...type.wrap(heading, bodyBold, partyWidth), ...type.wrap(oneLine(name), body, partyWidth), ...type.wrap(oneLine(detail), muted, partyWidth)],
    },
  ];
  y += drawCells([...party(MARGIN_X, 'From', issuer.name, issuer.url), ...party(MARGIN_X + partyWidth + partyGap, 'Billed to', organization.name, organization.id)], y);
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
  y += drawCells([{ x: MARGIN_X, width: CONTENT_WIDTH, lines: type.wrap(summary, { size: 15, color: COLORS.text, bold: true }, CONTENT_WIDTH) }], y);
  y += 20;

  // --- Lines ---------------------------------------------------------------------------------
  const qtyX = MARGIN_X + DESCRIPTION_WIDTH + COLUMN_GAP;
  const unitX = qtyX + QTY_WIDTH + COLUMN_GAP;
  const amountX = unitX + UNIT_WIDTH + COLUMN_GAP;
  const rowGap = 6;

  const tableHeader = (): void => {
    const height = drawCells(
      [
        { x: MARGIN_X, width: DESCRIPTION_WIDTH, lines: type.wrap('Description', smallBold, DESCRIPTION_WIDTH) },
        { x: qtyX, width: QTY_WIDTH, lines: type.wrap('Qty', smallBold, QTY_WIDTH), align: 'right' },
        { x: unitX, width: UNIT_WIDTH, lines: type.wrap('Unit price', smallBold, UNIT_WIDTH), align: 'right' },
        { x: amountX, width: AMOUNT_WIDTH, lines: type.wrap('Amount', smallBold, AMOUNT_WIDTH), align: 'right' },
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
    const heading = type.wrap(`Invoice ${number} (continued)`, small, CONTENT_WIDTH);
    y += drawCells([{ x: MARGIN_X, width: CONTENT_WIDTH, lines: heading }], y) + 12;
  };

  tableHeader();
  const rows: Cell[][] = invoice.lines.map((line) => [
    { x: MARGIN_X, width: DESCRIPTION_WIDTH, lines: type.wrap(line.description, body, DESCRIPTION_WIDTH) },
    { x: qtyX, width: QTY_WIDTH, lines: type.wrap(quantityFormat.format(line.quantity), body, QTY_WIDTH), align: 'right' },
    { x: unitX, width: UNIT_WIDTH, lines: type.wrap(money(line.unitAmount), body, UNIT_WIDTH), align: 'right' },
    { x: amountX, width: AMOUNT_WIDTH, lines: type.wrap(money(line.amount), body, AMOUNT_WIDTH), align: 'right' },
  ]);
  if (rows.length === 0) rows.push([{ x: MARGIN_X, width: DESCRIPTION_WIDTH, lines: type.wrap('No items', muted, DESCRIPTION_WIDTH) }]);
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
    const value = type.wrap(row.value, row.style, AMOUNT_WIDTH + UNIT_WIDTH / 2);
    const valueWidth = Math.max(...value.map((line) => line.width));
    y += drawCells(
      [
        { x: totalsX, width: totalsWidth - valueWidth - COLUMN_GAP, lines: type.wrap(row.label, row.style, totalsWidth - valueWidth - COLUMN_GAP) },
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
    const pageLabel = type.wrap(`Page ${page - range.start + 1} of ${range.count}`, small, CONTENT_WIDTH)[0]!;
    const left = type.wrap(`${number} · ${summary}`, small, CONTENT_WIDTH - pageLabel.width - COLUMN_GAP)[0]!;
    type.draw(left, MARGIN_X, CONTENT_WIDTH, FOOTER_RULE_Y + 8);
    type.draw(pageLabel, MARGIN_X, CONTENT_WIDTH, FOOTER_RULE_Y + 8, 'right');
  }
  doc.end();
  return doc;
}
