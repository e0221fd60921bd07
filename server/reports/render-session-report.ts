import { inflateSync } from 'node:zlib';
import { DEFAULT_BRAND_COLOR } from '../lib/branding.js';
import { formatUtcDateTime } from '../../shared/i18n/format-date.js';
import { isMessageKey, type Translate, translator } from '../../shared/i18n/translate.js';
import { interviewLanguageOf } from '../../shared/languages.js';
import { formatDuration } from '../../shared/format-duration.js';
import {
  cleanText,
  createDocument,
  createTypesetter,
  PAGE_HEIGHT,
  PAGE_WIDTH,
  type Line,
  type ReportFonts,
  type Span,
  type TextStyle,
} from './pdf-typesetting.js';
import type { SessionReport, SessionReportOptions } from './session-report.js';

export type { ReportFonts } from './pdf-typesetting.js';

/*
 * The report is typeset line by line (pdf-typesetting.ts) rather than with pdfkit's own line
 * wrapper: knowing every line before drawing is what lets an utterance's speaker label stay with
 * its text at a page break.
 */

// ---------------------------------------------------------------------------------------------
// Page geometry (A4, points) and the look of each branding.

const MARGIN_X = 50;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
const FOOTER_RULE_Y = PAGE_HEIGHT - 40;
const CONTENT_BOTTOM = FOOTER_RULE_Y - 14;
const CONTINUATION_TOP = 62;
const LOGO_HEIGHT = 40;
const LOGO_MAX_WIDTH = 180;

interface Theme {
  branding: SessionReportOptions['branding'];
  /** Rules, bars and bands; null in minimal. */
  accent: string | null;
  /** The accent when it reads on white, else the text colour. */
  accentText: string;
  text: string;
  secondary: string;
  muted: string;
  rule: string;
  panel: string | null;
  body: number;
  small: number;
  leading: number;
  sectionGap: number;
}

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

function contrastOnWhite(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
}

function themeFor(report: SessionReport, branding: SessionReportOptions['branding']): Theme {
  if (branding === 'minimal') {
    return {
      branding,
      accent: null,
      accentText: '#000000',
      text: '#000000',
      secondary: '#000000',
      muted: '#555555',
      rule: '#000000',
      panel: null,
      body: 9,
      small: 7.5,
      leading: 1.32,
      sectionGap: 14,
    };
  }
  const brand = branding === 'custom' ? report.organization.brandColor : null;
  const accent = brand && HEX_COLOR.test(brand) ? brand : DEFAULT_BRAND_COLOR;
  const text = '#111827';
  return {
    branding,
    accent,
    // A pale brand colour still draws the rules, but headings stay legible.
    accentText: contrastOnWhite(accent) >= 3 ? accent : text,
    text,
    secondary: '#374151',
    muted: '#6B7280',
    rule: '#E5E7EB',
    panel: '#F4F5F7',
    body: 9.5,
    small: 7.5,
    leading: 1.42,
    sectionGap: 20,
  };
}

const SENTIMENT_COLORS = { positive: '#15803D', neutral: '#6B7280', negative: '#B91C1C' } as const;

// ---------------------------------------------------------------------------------------------
// Formatting.

/** "25 Nov 2026, 14:06 UTC" ("25. Nov. 2026, 14:06 UTC" in a German report). */
export function formatReportDate(date: Date, language = 'en'): string {
  return formatUtcDateTime(date, language, 'short');
}

/** "[03:07]", or "[1:02:07]" past an hour. */
export function formatTimestamp(offsetSeconds: number): string {
  const seconds = Math.max(0, Math.floor(offsetSeconds));
  const two = (n: number): string => String(n).padStart(2, '0');
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `[${h}:${two(m)}:${two(s)}]` : `[${two(m)}:${two(s)}]`;
}

function humanize(value: string): string {
  const words = value.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

/** A status in the report's words; one the catalogue does not have, humanized. */
function statusWord(t: Translate, status: string): string {
  const key = `report.status.${status}`;
  return isMessageKey(key) ? t(key) : humanize(status);
}

/** "Completed (timed out)": the status, and how it ended when that says more. */
function formatStatus(t: Translate, status: string, completionStatus: string | null): string {
  if (!completionStatus || completionStatus === status) return statusWord(t, status);
  const key = `report.reason.${completionStatus}`;
  return `${statusWord(t, status)} (${isMessageKey(key) ? t(key) : completionStatus.replace(/_/g, ' ')})`;
}

function formatAnswer(t: Translate, value: number | boolean | string | null): string {
  if (value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? t('report.yes') : t('report.no');
  return String(value);
}

/** "Polish (pl)", "Polnisch (pl)" in a German report; the tag alone when it is not one Intl knows. */
function formatLanguage(tag: string, reportLanguage: string): string {
  if (!tag.trim()) return '—';
  try {
    const name = new Intl.DisplayNames([interviewLanguageOf(reportLanguage) ?? 'en'], { type: 'language' }).of(tag);
    return name && name.toLowerCase() !== tag.toLowerCase() ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

function formatScore(score: number): string {
  return score.toFixed(2).replace(/^-0\.00$/, '0.00');
}

// ---------------------------------------------------------------------------------------------
// Logos: pdfkit decodes PNGs with transparency asynchronously and throws from a zlib callback
// when the data is corrupt, which no try/catch here can catch (the process would crash). So a
// PNG is checked the way pdfkit's decoder will read it before it is handed over.

const PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;
/** Logos are small; anything bigger is refused rather than decoded. */
const MAX_LOGO_PIXELS = 16_000_000;

export function isDecodablePng(data: Buffer): boolean {
  if (data.length < 8 || !data.subarray(0, 8).equals(PNG_SIGNATURE)) return false;
  let header: { width: number; height: number; depth: number; colorType: number; interlace: number } | null = null;
  let hasPalette = false;
  const idat: Buffer[] = [];
  for (let at = 8; ;) {
    if (at + 12 > data.length) return false;
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > data.length) return false;
    const body = data.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      if (length !== 13) return false;
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8]!, colorType: body[9]!, interlace: body[12]! };
    } else if (type === 'PLTE') hasPalette = length > 0 && length % 3 === 0;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!header || idat.length === 0) return false;
  const { width, height, depth, colorType, interlace } = header;
  const channels = PNG_CHANNELS[colorType];
  if (!channels || !PNG_DEPTHS[colorType]?.includes(depth) || interlace > 1) return false;
  if (width === 0 || height === 0 || width * height > MAX_LOGO_PIXELS || (colorType === 3 && !hasPalette)) return false;
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(idat), { maxOutputLength: 8 * MAX_LOGO_PIXELS + height + 64 });
  } catch {
    return false;
  }
  const bytesPerPixel = (channels * depth) / 8;
  let pos = 0;
  for (const [x0, y0, dx, dy] of interlace ? ADAM7 : ([[0, 0, 1, 1]] as const)) {
    const passWidth = Math.ceil((width - x0) / dx);
    const passHeight = Math.ceil((height - y0) / dy);
    const scanline = Math.ceil(passWidth * bytesPerPixel);
    for (let row = 0; row < passHeight && pos < pixels.length; row++) {
      if (pixels[pos]! > 4) return false;
      pos += 1 + scanline;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The document.

interface Column {
  x: number;
  width: number;
  lines: Line[];
}

/**
 * Writes the session's report and ends the document: the caller pipes the returned stream to a
 * response or a file. Fonts are read from disk on the first call only.
 */
export function renderSessionReport(report: SessionReport, options: SessionReportOptions, fonts?: ReportFonts): PDFKit.PDFDocument {
  const theme = themeFor(report, options.branding);
  const campaignName = cleanText(report.campaign.name).replace(/\n/g, ' ');
  const reportLanguage = report.session.language;
  const t = translator(reportLanguage);
  const reportTitle = t('report.title');
  const title = `${reportTitle} — ${campaignName}`;
  const language = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(report.session.language) ? report.session.language : undefined;

  const doc = createDocument({
    lang: language,
    info: { Title: title, Author: cleanText(report.organization.name), Creator: 'Interview Service', CreationDate: report.generatedAt },
  });
  const type = createTypesetter(doc, { leading: theme.leading, language: report.session.language, fonts });

  const style = (size: number, color: string, bold = false): TextStyle => ({ size, color, bold });
  const body = style(theme.body, theme.text);
  const bodySecondary = style(theme.body, theme.secondary);
  const small = style(theme.small, theme.muted);
  const smallBold = style(theme.small, theme.muted, true);

  // Flow: a cursor down the page; content never passes CONTENT_BOTTOM.
  let y = 0;
  let pageTop = 0;
  const newPage = (): void => {
    doc.addPage();
    y = CONTINUATION_TOP;
    pageTop = y;
  };
  const linesHeight = (lines: Line[]): number => lines.reduce((sum, line) => sum + line.height, 0);

  /**
   * Draws columns line by line (line k of every column on one row), breaking pages between rows:
   * at least two rows stay on the first page and two go to the next (orphans and widows), and a
   * block marked keepTogether moves whole when it fits on a page.
   */
  const flowColumns = (
    columns: Column[],
    layout: {
      keepTogether?: boolean;
      /** Rows that must stay on the first page together (the whole gutter of an utterance). */
      minFirstRows?: number;
      onChunk?: (top: number, bottom: number) => void;
      onContinue?: (top: number) => void;
    } = {},
  ): void => {
    const rowCount = Math.max(0, ...columns.map((column) => column.lines.length));
    const rows = Array.from({ length: rowCount }, (_, index) => {
      const cells = columns.map((column) => column.lines[index]);
      const height = Math.max(...cells.map((line) => line?.height ?? 0));
      const baseline = Math.max(...cells.map((line) => line?.baseline ?? 0));
      return { cells, height, baseline };
    });
    const total = rows.reduce((sum, row) => sum + row.height, 0);
    if (layout.keepTogether && y + total > CONTENT_BOTTOM && y > pageTop && total <= CONTENT_BOTTOM - CONTINUATION_TOP) newPage();
    let next = 0;
    while (next < rows.length) {
      let fit = 0;
      for (let used = 0; next + fit < rows.length && y + used + rows[next + fit]!.height <= CONTENT_BOTTOM; fit++) used += rows[next + fit]!.height;
      const remaining = rows.length - next;
      if (fit < remaining) {
        if (remaining - fit < 2) fit = remaining - 2;
        const orphans = next === 0 ? Math.max(2, layout.minFirstRows ?? 0) : 2;
        if (fit < Math.min(orphans, remaining) && y > pageTop) {
          newPage();
          if (next > 0) layout.onContinue?.(y);
          continue;
        }
        fit = Math.max(fit, 1);
      }
      const chunkTop = y;
      for (const row of rows.slice(next, next + fit)) {
        row.cells.forEach((line, index) => {
          const column = columns[index]!;
          if (line) type.draw(line, column.x, column.width, y + row.baseline - line.baseline);
        });
        y += row.height;
      }
      layout.onChunk?.(chunkTop, y);
      next += fit;
      if (next < rows.length) {
        newPage();
        layout.onContinue?.(y);
      }
    }
  };

  const paragraph = (spans: Span[], x = MARGIN_X, width = CONTENT_WIDTH, keepTogether = false): void => {
    flowColumns([{ x, width, lines: type.wrap(spans, width) }], { keepTogether });
  };

  /** A heading is never the last thing on a page: it moves with room for a few lines after it. */
  const sectionHeading = (text: string): void => {
    if (y > pageTop) y += theme.sectionGap;
    const lines = type.wrap([{ text, style: style(theme.body + 3.5, theme.accentText, true) }], CONTENT_WIDTH);
    if (y + linesHeight(lines) + 8 + theme.body * theme.leading * 3 > CONTENT_BOTTOM) newPage();
    doc.outline.addItem(text);
    flowColumns([{ x: MARGIN_X, width: CONTENT_WIDTH, lines }]);
    y += 3;
    doc
      .moveTo(MARGIN_X, y)
      .lineTo(MARGIN_X + CONTENT_WIDTH, y)
      .lineWidth(theme.branding === 'minimal' ? 0.5 : 0.75)
      .strokeColor(theme.rule)
      .stroke();
    y += 8;
  };

  const subHeading = (text: string): void => {
    const lines = type.wrap([{ text, style: style(theme.body + 0.5, theme.text, true) }], CONTENT_WIDTH);
    if (y > pageTop) y += 8;
    if (y + linesHeight(lines) + theme.body * theme.leading * 2 > CONTENT_BOTTOM) newPage();
    flowColumns([{ x: MARGIN_X, width: CONTENT_WIDTH, lines }]);
    y += 3;
  };

  // --- First page header -------------------------------------------------------------------
  const session = report.session;
  const organizationName = cleanText(report.organization.name).replace(/\n/g, ' ');
  if (theme.branding === 'default') {
    const titleLines = type.wrap([{ text: campaignName, style: style(18, '#FFFFFF', true) }], CONTENT_WIDTH);
    const label = type.wrap([{ text: reportTitle, style: style(9, '#FFFFFF', true) }], CONTENT_WIDTH);
    const bandHeight = 30 + linesHeight(label) + 2 + linesHeight(titleLines) + 22;
    doc.rect(0, 0, PAGE_WIDTH, bandHeight).fill(theme.accent ?? DEFAULT_BRAND_COLOR);
    y = 30;
    flowColumns([{ x: MARGIN_X, width: CONTENT_WIDTH, lines: label }]);
    y += 2;
    flowColumns([{ x: MARGIN_X, width: CONTENT_WIDTH, lines: titleLines }]);
    y = bandHeight + 20;
  } else if (theme.branding === 'custom') {
    y = 34;
    let nameX = MARGIN_X;
    if (report.organization.logo) {
      const logo = report.organization.logo;
      const readable = !logo.subarray(0, 8).equals(PNG_SIGNATURE) || isDecodablePng(logo);
      if (readable) {
        try {
          // openImage is how pdfkit reads an image's size; its types leave it out.
          const image = (doc as unknown as { openImage(src: Buffer): { width: number; height: number; orientation?: number } }).openImage(logo);
          const [width, height] = (image.orientation ?? 1) > 4 ? [image.height, image.width] : [image.width, image.height];
          const scale = Math.min(LOGO_HEIGHT / height, LOGO_MAX_WIDTH / width);
          doc.image(logo, MARGIN_X, y, { fit: [width * scale, height * scale] });
          nameX = MARGIN_X + width * scale + 14;
        } catch {
          // A logo pdfkit cannot read is left out; the organization's name still shows.
        }
      }
    }
    if (nameX > MARGIN_X || organizationName.trim()) {
      const name = type.singleLine([{ text: organizationName, style: style(13, theme.text, true) }], MARGIN_X + CONTENT_WIDTH - nameX);
      type.draw(name, nameX, MARGIN_X + CONTENT_WIDTH - nameX, y + (LOGO_HEIGHT - name.height) / 2);
      y += LOGO_HEIGHT + 12;
    }
    doc.rect(MARGIN_X, y, CONTENT_WIDTH, 2).fill(theme.accent ?? DEFAULT_BRAND_COLOR);
    y += 18;
    paragraph([{ text: reportTitle, style: style(20, theme.text, true) }]);
    y += 1;
    paragraph([{ text: campaignName, style: style(13, theme.accentText, true) }]);
    y += 16;
  } else {
    y = 44;
    paragraph([{ text: reportTitle, style: style(16, theme.text, true) }]);
    paragraph([{ text: campaignName, style: style(11, theme.text) }]);
    y += 6;
    doc
      .moveTo(MARGIN_X, y)
      .lineTo(MARGIN_X + CONTENT_WIDTH, y)
      .lineWidth(0.5)
      .strokeColor(theme.rule)
      .stroke();
    y += 12;
  }
  pageTop = 0;

  // --- Facts ---------------------------------------------------------------------------------
  const participant = [session.participant.name, session.participant.email].filter((part): part is string => !!part && part.trim() !== '');
  const date = session.startedAt ?? session.completedAt;
  const facts: [string, Span[]][] = [
    [t('report.participant'), [{ text: participant.length > 0 ? participant.join(' · ') : '—', style: body }]],
    [t('report.campaign'), [{ text: campaignName, style: body }]],
    [t('report.date'), [{ text: date ? formatReportDate(date, reportLanguage) : '—', style: body }]],
    [t('report.duration'), [{ text: formatDuration(session.durationSeconds), style: body }]],
    [t('report.status'), [{ text: formatStatus(t, session.status, session.completionStatus), style: body }]],
    [t('report.questionsAnswered'), [{ text: t('report.answeredOf', { answered: session.questionsAnswered, total: session.totalQuestions }), style: body }]],
    [t('report.language'), [{ text: formatLanguage(session.language, reportLanguage), style: body }]],
  ];
  if (options.include_sentiment) {
    const overall = session.sentiment;
    facts.push([
      t('report.overallSentiment'),
      overall
        ? [
            ...(theme.accent ? [{ text: '● ', style: style(theme.body, SENTIMENT_COLORS[overall.overall]) }] : []),
            { text: humanize(t(`report.sentiment.${overall.overall}`)), style: body },
            { text: ` (${t('report.score', { score: formatScore(overall.score) })})`, style: style(theme.body, theme.muted) },
          ]
        : [{ text: '—', style: body }],
    ]);
  }
  const panelPadding = theme.panel ? 14 : 0;
  const columnGap = 24;
  const factWidth = (CONTENT_WIDTH - 2 * panelPadding - columnGap) / 2;
  const factRows: Column[][] = [];
  for (let index = 0; index < facts.length; index += 2) {
    factRows.push(
      facts.slice(index, index + 2).map(([label, value], column) => ({
        x: MARGIN_X + panelPadding + column * (factWidth + columnGap),
        width: factWidth,
        lines: [...type.wrap([{ text: label.toUpperCase(), style: smallBold }], factWidth), ...type.wrap(value, factWidth)],
      })),
    );
  }
  const factRowGap = theme.branding === 'minimal' ? 5 : 8;
  const rowHeight = (columns: Column[]): number => Math.max(...columns.map((column) => linesHeight(column.lines)));
  const factsHeight = factRows.reduce((sum, row) => sum + rowHeight(row), 0) + factRowGap * (factRows.length - 1) + 2 * panelPadding;
  if (theme.panel) doc.roundedRect(MARGIN_X, y, CONTENT_WIDTH, factsHeight, 6).fill(theme.panel);
  y += panelPadding;
  factRows.forEach((row, index) => {
    if (index > 0) y += factRowGap;
    flowColumns(row, { keepTogether: true });
  });
  y += panelPadding;
  if (!theme.panel) {
    y += 8;
    doc
      .moveTo(MARGIN_X, y)
      .lineTo(MARGIN_X + CONTENT_WIDTH, y)
      .lineWidth(0.5)
      .strokeColor(theme.rule)
      .stroke();
  }

  // --- Answers -------------------------------------------------------------------------------
  if (report.answers.length > 0) {
    sectionHeading(t('report.answers'));
    const numberWidth = 22;
    const answerWidth = 170;
    const questionWidth = CONTENT_WIDTH - numberWidth - answerWidth - 16;
    report.answers.forEach((answer, index) => {
      if (index > 0) y += 5;
      flowColumns(
        [
          { x: MARGIN_X, width: numberWidth, lines: type.wrap([{ text: `${index + 1}.`, style: style(theme.body, theme.muted) }], numberWidth) },
          { x: MARGIN_X + numberWidth, width: questionWidth, lines: type.wrap([{ text: answer.questionText, style: bodySecondary }], questionWidth) },
          {
            x: MARGIN_X + numberWidth + questionWidth + 16,
            width: answerWidth,
            lines: type.wrap([{ text: formatAnswer(t, answer.value), style: style(theme.body, theme.text, true) }], answerWidth),
          },
        ],
        { keepTogether: true },
      );
      y += 5;
      if (index < report.answers.length - 1) {
        doc
          .moveTo(MARGIN_X, y)
          .lineTo(MARGIN_X + CONTENT_WIDTH, y)
          .lineWidth(0.5)
          .strokeColor(theme.branding === 'minimal' ? '#BBBBBB' : theme.rule)
          .stroke();
      }
    });
  }

  // --- Insights ------------------------------------------------------------------------------
  const { insights } = report;
  if (insights && (insights.summary.trim() || insights.keyQuotes.length > 0 || insights.actionItems.length > 0 || insights.topics.length > 0)) {
    sectionHeading(t('report.insights'));
    if (insights.summary.trim()) {
      subHeading(t('report.summary'));
      paragraph([{ text: insights.summary, style: body }]);
    }
    if (insights.keyQuotes.length > 0) {
      subHeading(t('report.keyQuotes'));
      const barX = MARGIN_X + 2;
      const quoteX = MARGIN_X + 14;
      insights.keyQuotes.forEach((quote, index) => {
        if (index > 0) y += 7;
        const spans: Span[] = [{ text: `“${quote.text.trim()}”`, style: body }];
        if (options.include_timestamps && quote.startTime !== null)
          spans.push({ text: ` ${formatTimestamp(quote.startTime)}`, style: style(theme.body - 1, theme.muted) });
        flowColumns([{ x: quoteX, width: CONTENT_WIDTH - 14, lines: type.wrap(spans, CONTENT_WIDTH - 14) }], {
          keepTogether: true,
          onChunk: (top, bottom) => {
            doc.rect(barX, top + 1, 2, bottom - top - 2).fill(theme.accent ?? '#000000');
          },
        });
      });
    }
    if (insights.actionItems.length > 0) {
      subHeading(t('report.actionItems'));
      insights.actionItems.forEach((item, index) => {
        if (index > 0) y += 3;
        flowColumns([
          { x: MARGIN_X + 4, width: 12, lines: type.wrap([{ text: '•', style: style(theme.body, theme.accentText, true) }], 12) },
          { x: MARGIN_X + 16, width: CONTENT_WIDTH - 16, lines: type.wrap([{ text: item, style: body }], CONTENT_WIDTH - 16) },
        ]);
      });
    }
    if (insights.topics.length > 0) {
      subHeading(t('report.topics'));
      const spans: Span[] = [];
      insights.topics.forEach((topic, index) => {
        // A topic and its count never part at a line break: only the separator holds spaces.
        const label = cleanText(topic.label).replace(/\s+/g, '\u00A0');
        // The number and its noun stay on one line.
        const count = t('report.utterances', { count: topic.utteranceCount }).replace(' ', '\u00A0');
        if (index > 0) spans.push({ text: ' \u00A0·\u00A0 ', style: style(theme.body, theme.muted) });
        spans.push({ text: label, style: style(theme.body, theme.text, true) }, { text: `\u00A0(${count})`, style: style(theme.body, theme.muted) });
      });
      paragraph(spans);
    }
  }

  // --- Transcript ----------------------------------------------------------------------------
  sectionHeading(t('report.transcript'));
  if (report.utterances.length === 0) paragraph([{ text: t('report.noUtterances'), style: style(theme.body, theme.muted) }]);
  const gutterWidth = 92;
  const textX = MARGIN_X + gutterWidth;
  const textWidth = CONTENT_WIDTH - gutterWidth;
  const speakerColor = { ai: theme.accentText, participant: theme.text };
  for (const [index, utterance] of report.utterances.entries()) {
    if (index > 0) y += theme.branding === 'minimal' ? 5 : 7;
    const speaker = utterance.speaker === 'ai' ? t('report.interviewer') : t('report.participant');
    const gutter: Line[] = [type.singleLine([{ text: speaker, style: style(theme.body - 1, speakerColor[utterance.speaker], true) }], gutterWidth - 8)];
    if (options.include_timestamps) gutter.push(...type.wrap([{ text: formatTimestamp(utterance.startTime), style: small }], gutterWidth - 8));
    if (options.include_sentiment && utterance.sentiment) {
      const word: Span = { text: t(`report.sentiment.${utterance.sentiment}`), style: small };
      gutter.push(
        ...type.wrap(theme.accent ? [{ text: '● ', style: style(theme.small, SENTIMENT_COLORS[utterance.sentiment]) }, word] : [word], gutterWidth - 8),
      );
    }
    const textStyle = utterance.speaker === 'ai' ? bodySecondary : body;
    flowColumns(
      [
        { x: MARGIN_X, width: gutterWidth - 8, lines: gutter },
        { x: textX, width: textWidth, lines: type.wrap([{ text: utterance.text, style: textStyle }], textWidth) },
      ],
      {
        minFirstRows: gutter.length,
        onContinue: (top) => {
          const line = type.singleLine([{ text: t('report.continued', { speaker }), style: small }], gutterWidth - 8);
          type.draw(line, MARGIN_X, gutterWidth - 8, top + (theme.body * theme.leading - line.height) / 2 + 1);
        },
      },
    );
  }

  // --- Running headers and footers, now that the page count is known -------------------------
  const range = doc.bufferedPageRange();
  const generated = t('report.generated', { id: report.session.id, date: formatReportDate(report.generatedAt, reportLanguage) });
  const participantName = session.participant.name ?? '';
  for (let page = range.start; page < range.start + range.count; page++) {
    doc.switchToPage(page);
    const number = page - range.start + 1;
    if (number > 1) {
      if (theme.branding === 'default') doc.rect(0, 0, PAGE_WIDTH, 4).fill(theme.accent ?? DEFAULT_BRAND_COLOR);
      const left = theme.branding === 'custom' ? `${organizationName} · ${reportTitle} · ${campaignName}` : `${reportTitle} · ${campaignName}`;
      const right = type.singleLine([{ text: participantName, style: small }], CONTENT_WIDTH * 0.35);
      const headerLine = type.singleLine([{ text: left, style: small }], CONTENT_WIDTH - right.width - 16);
      type.draw(headerLine, MARGIN_X, CONTENT_WIDTH, 24);
      if (participantName) type.draw(right, MARGIN_X + CONTENT_WIDTH - right.width, right.width, 24);
      doc
        .moveTo(MARGIN_X, 40)
        .lineTo(MARGIN_X + CONTENT_WIDTH, 40)
        .lineWidth(theme.branding === 'custom' ? 1 : 0.5)
        .strokeColor(theme.branding === 'custom' ? (theme.accent ?? theme.rule) : theme.rule)
        .stroke();
    }
    doc
      .moveTo(MARGIN_X, FOOTER_RULE_Y)
      .lineTo(MARGIN_X + CONTENT_WIDTH, FOOTER_RULE_Y)
      .lineWidth(0.5)
      .strokeColor(theme.rule)
      .stroke();
    const pageLabel = type.singleLine([{ text: t('report.page', { number, count: range.count }), style: small }], CONTENT_WIDTH / 3);
    const footerLeft = type.singleLine([{ text: generated, style: small }], CONTENT_WIDTH - pageLabel.width - 16);
    type.draw(footerLeft, MARGIN_X, CONTENT_WIDTH, FOOTER_RULE_Y + 8);
    type.draw(pageLabel, MARGIN_X + CONTENT_WIDTH - pageLabel.width, pageLabel.width, FOOTER_RULE_Y + 8);
  }
  doc.end();
  return doc;
}
