import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';

/*
 * Typesetting for the PDFs (session report, invoice), done here rather than with pdfkit's own
 * line wrapper, for three reasons: runs of one paragraph may need different fonts (DejaVu, then a
 * fallback for what it lacks), right-to-left text (Hebrew, Arabic) has to be reordered per line
 * after wrapping, which pdfkit does not do, and knowing every line before drawing is what lets a
 * layout keep things together at a page break (an utterance's speaker label with its text, a
 * table row with its numbers). pdfkit still shapes and draws each run.
 */

/** A4, in points. */
export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------
// Fonts: parsed once per process. pdfkit accepts a parsed fontkit font wherever it takes a font
// file, so each document only builds its own subset.

/** The part of a fontkit font used here (fontkit ships no type declarations). */
interface FontkitFont {
  readonly postscriptName: string;
  hasGlyphForCodePoint(codePoint: number): boolean;
}

interface FontkitCollection {
  readonly fonts: FontkitFont[];
}

interface Fontkit {
  openSync(file: string): FontkitFont | FontkitCollection;
}

/** Paths where Debian, Ubuntu and Alpine packages put fonts with CJK coverage. */
const SYSTEM_FALLBACK_FONTS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf',
];

/** DejaVu Sans ascender and descender, in em: where a line's baseline sits within its height. */
const ASCENT = 0.928;
const DESCENT = 0.236;

let dejaVu: { regular: FontkitFont; bold: FontkitFont } | undefined;
/** Per file and preferred face; null when the file could not be read as a font. */
const fallbackCache = new Map<string, FontkitFont | null>();
let systemFallbackFiles: string[] | undefined;

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

/**
 * Noto CJK collections hold one face per region; the glyph shapes of shared ideographs differ,
 * so the face is picked from the document's language (simplified Chinese without one).
 */
function preferredCjkFaces(language: string): string[] {
  const tag = language.toLowerCase();
  if (tag.startsWith('ja')) return ['NotoSansCJKjp-Regular'];
  if (tag.startsWith('ko')) return ['NotoSansCJKkr-Regular'];
  if (/^zh-(hk|mo)/.test(tag)) return ['NotoSansCJKhk-Regular', 'NotoSansCJKtc-Regular'];
  if (/^zh-(tw|hant)/.test(tag)) return ['NotoSansCJKtc-Regular'];
  return ['NotoSansCJKsc-Regular'];
}

function loadFallback(file: string, preferredFaces: string[]): FontkitFont | null {
  const key = `${file}\n${preferredFaces.join(',')}`;
  if (!fallbackCache.has(key)) {
    let font: FontkitFont | null;
    try {
      const opened = fontkit().openSync(file);
      font = 'fonts' in opened ? (opened.fonts.find((face) => preferredFaces.includes(face.postscriptName)) ?? opened.fonts[0] ?? null) : opened;
      if (font && typeof font.hasGlyphForCodePoint !== 'function') font = null;
    } catch {
      // An unreadable fallback only costs the glyphs it would have drawn.
      font = null;
    }
    fallbackCache.set(key, font);
  }
  return fallbackCache.get(key) ?? null;
}

function fallbackFonts(language: string, callerFallback: string | undefined): FontkitFont[] {
  systemFallbackFiles ??= SYSTEM_FALLBACK_FONTS.filter((file) => existsSync(file));
  const faces = preferredCjkFaces(language);
  const files = callerFallback ? [callerFallback, ...systemFallbackFiles.filter((file) => file !== callerFallback)] : systemFallbackFiles;
  return files.map((file) => loadFallback(file, faces)).filter((font): font is FontkitFont => font !== null);
}

/** Fonts a document is given on top of DejaVu Sans. */
export interface ReportFonts {
  /** A font file (TTF, OTF or TTC) for characters DejaVu Sans lacks, CJK for instance (PDF_FALLBACK_FONT). */
  fallback?: string;
}

// ---------------------------------------------------------------------------------------------
// Text.

/**
 * Control and invisible formatting characters (including bidi overrides, which would fight the
 * reordering done here) are dropped; lone surrogates become U+FFFD. Exported for text a layout
 * uses before typesetting (titles, document info).
 */
export function cleanText(text: string): string {
  return text
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g, '');
}

// ---------------------------------------------------------------------------------------------
// Typesetting: spans → segments (break opportunities) → lines → visual order → drawn runs.

export interface TextStyle {
  bold?: boolean;
  size: number;
  color: string;
}

export interface Span {
  text: string;
  style: TextStyle;
}

type BidiClass = 'L' | 'R' | 'EN' | 'N';

/** A stretch of one font, as measured. */
interface Run {
  text: string;
  font: string;
  width: number;
}

interface Segment {
  runs: Run[];
  width: number;
  style: TextStyle;
  bidi: BidiClass;
  /** A space separates it from the previous segment. */
  spaceBefore: boolean;
  /** A line may break before it (false inside a word that changes style). */
  breakBefore: boolean;
}

type LineItem = { kind: 'segment'; segment: Segment } | { kind: 'space'; width: number };

export interface Line {
  items: LineItem[];
  width: number;
  height: number;
  /** From the line's top to its baseline. */
  baseline: number;
  rtl: boolean;
}

const RTL_CHAR = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
const STRONG_LTR_CHAR = /[\p{L}\p{Mc}]/u;
/** Spaces a line may break at (no-break spaces are left out on purpose). */
const BREAKING_SPACES = /[ \u1680\u2000-\u2006\u2008-\u200A\u205F\u3000]+/u;
const SPLIT_AT_SPACES = new RegExp(`(${BREAKING_SPACES.source})`, 'u');
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const NO_BREAK_BEFORE = /^[、。，．：；？！）」』】〕〉》〗〙〛｝］…‥ー々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.!?:;)\]}”’]/u;
const NO_BREAK_AFTER = /[（「『【〔〈《〖〘〚｛［([{“‘]$/u;
// Alternatives, not one class: each joiner is a character of its own, never joined to the next.
const JOINING = /^(?:\p{M}|\u200C|\u200D|[\uFE00-\uFE0F])/u;
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

/**
 * A word holding right-to-left letters, cut where the direction changes ("ב-2026," → "ב", "-",
 * "2026", ","): pdfkit reverses every string that holds such letters, digits and punctuation
 * included, and punctuation at a word's edge takes the direction of what surrounds it.
 */
function splitByDirection(word: string): string[] {
  const parts: { text: string; type: BidiClass }[] = [];
  for (const char of word) {
    const last = parts[parts.length - 1];
    const type: BidiClass = last && JOINING.test(char) ? last.type : DIGIT.test(char) ? 'EN' : bidiClassOf(char);
    if (last && last.type === type) last.text += char;
    else parts.push({ text: char, type });
  }
  // A separator between digits belongs to the number ("1,5", "12:30").
  for (let at = parts.length - 2; at >= 1; at--) {
    const [before, separator, after] = [parts[at - 1]!, parts[at]!, parts[at + 1]!];
    if (before.type === 'EN' && after.type === 'EN' && /^[.,:/]$/.test(separator.text)) {
      before.text += separator.text + after.text;
      parts.splice(at, 2);
    }
  }
  return parts.map((part) => part.text);
}

/** Han and kana run without spaces: a line may break between any two of them. */
function breakCjk(word: string): string[] {
  if (!CJK_CHAR.test(word)) return [word];
  const parts: string[] = [];
  let current = '';
  let previousCjk = false;
  for (const grapheme of splitGraphemes(word)) {
    const cjk = CJK_CHAR.test(grapheme);
    if (current && (cjk || previousCjk) && !NO_BREAK_BEFORE.test(grapheme) && !NO_BREAK_AFTER.test(current)) {
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
 * Unicode bidi rules W7, N1, N2, I1, I2 and L2, applied to whole words: enough for text that mixes
 * a right-to-left script with Latin words and numbers, without explicit embeddings (stripped).
 */
function visualOrder(items: LineItem[], rtl: boolean): LineItem[] {
  if (!rtl && items.every((item) => item.kind === 'space' || item.segment.bidi !== 'R')) return items;
  const base = rtl ? 1 : 0;
  const sos: 'L' | 'R' = rtl ? 'R' : 'L';
  let lastStrong = sos;
  const types = items.map((item): BidiClass => {
    if (item.kind === 'space') return 'N';
    const bidi = item.segment.bidi;
    if (bidi === 'L' || bidi === 'R') lastStrong = bidi;
    if (bidi === 'EN') return lastStrong === 'L' ? 'L' : 'EN';
    return bidi;
  });
  const strength = (type: BidiClass | undefined): 'L' | 'R' | null => (type === 'L' ? 'L' : type === 'R' || type === 'EN' ? 'R' : null);
  const resolved = types.map((type, index): BidiClass => {
    if (type !== 'N') return type;
    let before: 'L' | 'R' | null = null;
    for (let i = index - 1; i >= 0 && !before; i--) before = strength(types[i]);
    let after: 'L' | 'R' | null = null;
    for (let i = index + 1; i < types.length && !after; i++) after = strength(types[i]);
    return (before ?? sos) === (after ?? sos) ? (before ?? sos) : sos;
  });
  const levels = resolved.map((type) => {
    if (type === 'L') return base % 2 === 0 ? base : base + 1;
    if (type === 'R') return base % 2 === 1 ? base : base + 1;
    return base % 2 === 0 ? base + 2 : base + 1;
  });
  const order = items.map((_, index) => index);
  const highest = Math.max(base, ...levels);
  for (let level = highest; level >= 1; level--) {
    for (let start = 0; start < order.length;) {
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

/** Registered font names per style, in the order a character looks for its glyph. */
interface FontKeys {
  regular: string[];
  bold: string[];
}

export interface Typesetter {
  /** Lines of at most `width`; a word wider than that is cut between graphemes. */
  wrap(spans: Span[], width: number): Line[];
  /** One line, cut with an ellipsis when wider than `width`. */
  singleLine(spans: Span[], width: number): Line;
  /** Draws a line with its top at `top` within [x, x + width], aligned right if asked or if right-to-left. */
  draw(line: Line, x: number, width: number, top: number, align?: 'left' | 'right'): void;
}

export interface TypesetterOptions {
  /** Line height, in em. */
  leading: number;
  /** The document's language tag, for the face of a Noto CJK collection (simplified Chinese without one). */
  language?: string;
  fonts?: ReportFonts;
}

/**
 * Registers DejaVu Sans and the fallback fonts with the document (read from disk on the first
 * call only) and typesets with them.
 */
export function createTypesetter(doc: PDFKit.PDFDocument, { leading, language = '', fonts: reportFonts }: TypesetterOptions): Typesetter {
  const base = loadDejaVu();
  const fallbacks = fallbackFonts(language, reportFonts?.fallback);
  const fonts: Record<string, FontkitFont> = { regular: base.regular, bold: base.bold };
  fallbacks.forEach((font, index) => (fonts[`fallback${index}`] = font));
  // pdfkit takes a parsed fontkit font where its types only list files and buffers.
  for (const [key, font] of Object.entries(fonts)) doc.registerFont(key, font as unknown as PDFKit.Mixins.PDFFontSource);
  const fallbackKeys = fallbacks.map((_, index) => `fallback${index}`);
  // What DejaVu Sans Bold lacks is looked for in the regular face before any other font.
  const keys: FontKeys = { regular: ['regular', ...fallbackKeys], bold: ['bold', 'regular', ...fallbackKeys] };

  const width = (text: string, font: string, size: number): number => doc.font(font).fontSize(size).widthOfString(text);

  /** Splits by the first font that has each character, marks and joiners staying with their base. */
  const runsOf = (text: string, style: TextStyle): Run[] => {
    const chain = style.bold ? keys.bold : keys.regular;
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
        // A mark or joiner the base's font lacks is dropped rather than drawn as a box.
        if (!fonts[last.font]!.hasGlyphForCodePoint(codePoint)) continue;
        font = last.font;
      } else {
        font = chain.find((key) => fonts[key]!.hasGlyphForCodePoint(codePoint));
      }
      if (!font) {
        // pdfkit writes the width of the missing-glyph box unscaled (about twice too wide), so the
        // text after it would overlap; a drawn square keeps the line's measure true.
        font = primary;
        drawn = MISSING_GLYPH;
      }
      if (last && last.font === font) last.text += drawn;
      else runs.push({ text: drawn, font });
    }
    return runs.map((run) => ({ ...run, width: width(run.text, run.font, style.size) }));
  };

  const makeSegment = (text: string, style: TextStyle, spaceBefore: boolean, breakBefore: boolean): Segment => {
    const runs = runsOf(text, style);
    return { runs, width: runs.reduce((sum, run) => sum + run.width, 0), style, bidi: bidiClassOf(text), spaceBefore, breakBefore };
  };

  const spaceWidth = (style: TextStyle): number => width(' ', style.bold ? keys.bold[0]! : keys.regular[0]!, style.size);

  /** Paragraphs (split at newlines) of segments; each paragraph knows its base direction. */
  const paragraphsOf = (spans: Span[]): { segments: Segment[]; rtl: boolean; size: number }[] => {
    const paragraphs: { segments: Segment[]; rtl: boolean; size: number }[] = [];
    let current: Segment[] = [];
    let size = spans[0]?.style.size ?? 10;
    let pendingSpace = false;
    const close = (): void => {
      const firstStrong = current.find((segment) => segment.bidi === 'L' || segment.bidi === 'R');
      paragraphs.push({ segments: current, rtl: firstStrong?.bidi === 'R', size });
      current = [];
      pendingSpace = false;
    };
    for (const span of spans) {
      size = Math.max(size, span.style.size);
      const lines = cleanText(span.text).split('\n');
      lines.forEach((text, lineIndex) => {
        if (lineIndex > 0) close();
        for (const part of text.split(SPLIT_AT_SPACES)) {
          if (!part) continue;
          if (BREAKING_SPACES.test(part)) {
            pendingSpace = current.length > 0;
            continue;
          }
          breakCjk(part).forEach((piece, index) => {
            const parts = RTL_CHAR.test(piece) ? splitByDirection(piece) : [piece];
            parts.forEach((text, part) => {
              const first = current.length === 0;
              const opens = part === 0;
              current.push(makeSegment(text, span.style, opens && index === 0 && pendingSpace && !first, opens && !first && (index > 0 || pendingSpace)));
            });
          });
          pendingSpace = false;
        }
      });
    }
    close();
    return paragraphs;
  };

  const metrics = (segments: Segment[], fallbackSize: number): { height: number; baseline: number } => {
    const size = segments.reduce((max, segment) => Math.max(max, segment.style.size), 0) || fallbackSize;
    const height = size * leading;
    return { height, baseline: (height - size * (ASCENT + DESCENT)) / 2 + size * ASCENT };
  };

  const finishLine = (items: LineItem[], rtl: boolean, fallbackSize: number): Line => {
    while (items[items.length - 1]?.kind === 'space') items.pop();
    const segments = items.flatMap((item) => (item.kind === 'segment' ? [item.segment] : []));
    const lineWidth = items.reduce((sum, item) => sum + (item.kind === 'space' ? item.width : item.segment.width), 0);
    return { items, width: lineWidth, rtl, ...metrics(segments, fallbackSize) };
  };

  /** A word wider than the line is cut between graphemes. */
  const cutToWidth = (segment: Segment, maxWidth: number): Segment[] => {
    const pieces: Segment[] = [];
    let current = '';
    for (const grapheme of splitGraphemes(segment.runs.map((run) => run.text).join(''))) {
      const candidate = current + grapheme;
      if (current && makeSegment(candidate, segment.style, false, true).width > maxWidth) {
        pieces.push(makeSegment(current, segment.style, pieces.length === 0 && segment.spaceBefore, pieces.length > 0 || segment.breakBefore));
        current = grapheme;
      } else {
        current = candidate;
      }
    }
    if (current) pieces.push(makeSegment(current, segment.style, pieces.length === 0 && segment.spaceBefore, pieces.length > 0 || segment.breakBefore));
    return pieces;
  };

  const wrap = (spans: Span[], maxWidth: number): Line[] => {
    const lines: Line[] = [];
    for (const paragraph of paragraphsOf(spans)) {
      // Units: segments that must stay on one line together (a word whose style changes).
      const units: Segment[][] = [];
      for (const segment of paragraph.segments) {
        const last = units[units.length - 1];
        if (last && !segment.breakBefore) last.push(segment);
        else units.push([segment]);
      }
      let items: LineItem[] = [];
      let lineWidth = 0;
      const push = (): void => {
        lines.push(finishLine(items, paragraph.rtl, paragraph.size));
        items = [];
        lineWidth = 0;
      };
      for (const unit of units) {
        const first = unit[0]!;
        const unitWidth = unit.reduce((sum, segment) => sum + segment.width, 0);
        const gap = items.length > 0 && first.spaceBefore ? spaceWidth(first.style) : 0;
        if (items.length > 0 && lineWidth + gap + unitWidth > maxWidth) push();
        const segments = unitWidth > maxWidth ? unit.flatMap((segment) => cutToWidth(segment, maxWidth)) : unit;
        for (const segment of segments) {
          const space = items.length > 0 && segment.spaceBefore ? spaceWidth(segment.style) : 0;
          if (items.length > 0 && lineWidth + space + segment.width > maxWidth) push();
          if (items.length > 0 && segment.spaceBefore) {
            items.push({ kind: 'space', width: space });
            lineWidth += space;
          }
          items.push({ kind: 'segment', segment });
          lineWidth += segment.width;
        }
      }
      push();
    }
    return lines;
  };

  const singleLine = (spans: Span[], maxWidth: number): Line => {
    const line = wrap(spans, Number.POSITIVE_INFINITY)[0]!;
    if (line.width <= maxWidth) return line;
    const style = spans[0]?.style ?? { size: 8, color: '#000000' };
    const text = spans.map((span) => span.text).join('');
    const parts = splitGraphemes(cleanText(text).replace(/\n/g, ' '));
    let low = 0;
    let high = parts.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      const candidate = wrap([{ text: `${parts.slice(0, mid).join('').trimEnd()}…`, style }], Number.POSITIVE_INFINITY)[0]!;
      if (candidate.width <= maxWidth) low = mid;
      else high = mid - 1;
    }
    return wrap([{ text: `${parts.slice(0, low).join('').trimEnd()}…`, style }], Number.POSITIVE_INFINITY)[0]!;
  };

  const draw = (line: Line, x: number, boxWidth: number, top: number, align: 'left' | 'right' = 'left'): void => {
    const baseline = top + line.baseline;
    let cursor = align === 'right' || line.rtl ? x + boxWidth - line.width : x;
    // Left-to-right runs of one font are drawn as one string; pdfkit shapes right-to-left words
    // one at a time (it reverses each whole string it is given), so those are drawn word by word.
    let pending: { text: string; font: string; style: TextStyle; x: number } | null = null;
    let spaceAfterPending = false;
    const flush = (): void => {
      if (!pending) return;
      doc.font(pending.font).fontSize(pending.style.size).fillColor(pending.style.color);
      doc.text(pending.text, pending.x, baseline, { lineBreak: false, baseline: 'alphabetic' });
      pending = null;
    };
    for (const item of visualOrder(line.items, line.rtl)) {
      if (item.kind === 'space') {
        spaceAfterPending = pending !== null;
        cursor += item.width;
        continue;
      }
      const segment = item.segment;
      const runs = segment.bidi === 'R' ? [...segment.runs].reverse() : segment.runs;
      for (const [index, run] of runs.entries()) {
        const joinsPending: boolean =
          pending !== null &&
          segment.bidi !== 'R' &&
          pending.font === run.font &&
          pending.style.size === segment.style.size &&
          pending.style.color === segment.style.color &&
          // The gap was measured as a space of the style's first font: only that font may write it.
          (index > 0 || !spaceAfterPending || run.font === (segment.style.bold ? keys.bold[0] : keys.regular[0]));
        if (joinsPending && pending) {
          pending.text += index === 0 && spaceAfterPending ? ` ${run.text}` : run.text;
        } else {
          flush();
          pending = { text: run.text, font: run.font, style: segment.style, x: cursor };
        }
        spaceAfterPending = false;
        cursor += run.width;
        if (segment.bidi === 'R') flush();
      }
    }
    flush();
  };

  return { wrap, singleLine, draw };
}

// ---------------------------------------------------------------------------------------------
// Documents.

/**
 * An A4 document for a layout that places every line itself: no margins, pages kept in memory
 * until the end (running headers and footers need the page count) and no default font, so that
 * every glyph drawn comes from an embedded font (no Helvetica).
 */
export function createDocument({ lang, info }: { lang?: string | undefined; info: PDFKit.DocumentInfo }): PDFKit.PDFDocument {
  return new PDFDocument({
    size: [PAGE_WIDTH, PAGE_HEIGHT],
    margins: { top: 0, bottom: 0, left: 0, right: 0 },
    bufferPages: true,
    font: '',
    displayTitle: true,
    ...(lang ? { lang } : {}),
    info,
  });
}
