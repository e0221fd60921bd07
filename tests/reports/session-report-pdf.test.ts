import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_COLOR } from '../../server/lib/branding.js';
import { formatDuration } from '../../shared/format-duration.js';
import { formatReportDate, formatTimestamp, isDecodablePng, renderSessionReport, type ReportFonts } from '../../server/reports/render-session-report.js';
import type { SessionReport, SessionReportOptions } from '../../server/reports/session-report.js';
import { createReportRenderer, type ReportRenderer } from '../../server/reports/report-renderer.js';

const run = promisify(execFile);

const hasPoppler = await run('pdftotext', ['-v']).then(
  () => true,
  () => false,
);
if (!hasPoppler) console.log('skipping session report PDF tests: pdftotext not found (apt-get install poppler-utils)');

/** Pages of a few renders, kept for a person to look at (tests/artifacts is gitignored). */
const ARTIFACTS = path.join(import.meta.dirname, '..', 'artifacts', 'pdf');
const THAI_FONT = '/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf';

const ALL_ON: SessionReportOptions = { include_timestamps: true, include_sentiment: true, branding: 'default' };
const ALL_OFF: SessionReportOptions = { include_timestamps: false, include_sentiment: false, branding: 'default' };

/** A4, 50 pt margins left and right. */
const RIGHT_MARGIN = 595.28 - 50;

const TIMESTAMP = /\[\d{1,2}:\d{2}(?::\d{2})?\]/;
const SENTIMENT_WORD = /\b(positive|neutral|negative)\b/i;

/** Strings in scripts other than Latin, or with diacritics, that must come out of the PDF exactly. */
const WORLD = {
  greek: 'Η εξυπηρέτηση πελατών ήταν εξαιρετική',
  cyrillic: 'Доставка заняла всего два дня',
  polish: 'Zażółć gęślą jaźń',
  turkish: 'İstanbul şubesi, ığdır çiçeği',
  vietnamese: 'Tiếng Việt rất dễ đọc',
  hebrew: 'שלום עולם',
  hebrewSentence: 'המוצר עובד מצוין ואני ממליץ עליו',
};

// ---------------------------------------------------------------------------------------------
// Fixtures.

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG (so pdfkit takes its transparency path): a teal disc on a transparent field. */
function logoPng(width = 96, height = 48, idat?: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows: Buffer[] = [];
  for (let row = 0; row < height; row++) {
    const line = Buffer.alloc(1 + width * 4);
    for (let col = 0; col < width; col++) {
      const inside =
        (col - height / 2) ** 2 + (row - height / 2) ** 2 < (height / 2 - 2) ** 2 || (col > height && col < width - 4 && row > 14 && row < height - 14);
      line.set(inside ? [15, 118, 110, 255] : [0, 0, 0, 0], 1 + col * 4);
    }
    rows.push(line);
  }
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', idat ?? deflateSync(Buffer.concat(rows))), pngChunk('IEND', Buffer.alloc(0))]);
}

const QUESTIONS: [string, number | boolean | string | null, string][] = [
  ['How would you rate the checkout overall, from 1 to 10?', 8, 'Eight, I would say. It was quick.'],
  ['Did you create an account before buying?', false, 'No, I checked out as a guest.'],
  ['How many items were in your basket?', 3, 'Three things: two shirts and a belt.'],
  ['Which payment method did you use?', 'Card', 'A debit card.'],
  ['Was the delivery date shown clearly?', true, 'Yes, right next to the price.'],
  ['How long did the checkout take, in minutes?', 4, 'Maybe four minutes.'],
  [
    'Did anything make you hesitate?',
    'The shipping cost appeared late',
    'The shipping cost only showed up on the last step, and that made me stop for a moment.',
  ],
  ['How easy was it to enter your address, from 1 to 5?', 4, 'Four. The autocomplete found my street.'],
  ['Did you use a discount code?', true, 'Yes, the one from the newsletter.'],
  ['Did the code apply on the first try?', false, 'No, I had to type it twice because of a space at the end.'],
  ['Which device did you use?', 'Phone', 'My phone, an older Android.'],
  ['Would you buy from us again?', true, 'Yes, probably before Christmas.'],
  ['How likely are you to recommend us, from 0 to 10?', 9, 'Nine.'],
  ['What language do you usually shop in?', 'Polish and English', `Polish at home — ${WORLD.polish}, as we say to test keyboards — and English at work.`],
  ['Did you contact customer service?', true, `Once, and the reply came in Greek because my account is registered in Athens: «${WORLD.greek}».`],
  ['How long did delivery take?', '2 days', `Two days. My sister in Kazan wrote to me: «${WORLD.cyrillic}» — she had the same experience.`],
  ['Did you read the returns policy?', null, 'Hm, I am not sure, I might have skimmed it.'],
  [
    'Was the order confirmation email clear?',
    true,
    `Yes. I also forwarded it to a colleague in Tel Aviv who only said ${WORLD.hebrew}, so I guess it was fine.`,
  ],
  [
    'Anything else about the checkout?',
    'Show shipping costs earlier',
    `Show the shipping earlier. And my Vietnamese friend said the site is fine: ${WORLD.vietnamese}.`,
  ],
  ['Any last words?', null, `Not really. Our office in Turkey sent a note: «${WORLD.turkish}».`],
];

function sampleReport(overrides: Partial<SessionReport> = {}): SessionReport {
  const utterances: SessionReport['utterances'] = [];
  let clock = 4;
  const say = (speaker: 'ai' | 'participant', text: string, sentiment: 'positive' | 'neutral' | 'negative' | null): void => {
    const duration = Math.max(3, Math.round(text.length / 14));
    utterances.push({ id: `utt_${utterances.length + 1}`, speaker, text, startTime: clock, endTime: clock + duration, sentiment });
    clock += duration + 2;
  };
  say('ai', 'Hello, and thank you for taking the time. I will ask you twenty short questions about your last order. Shall we start?', null);
  say('participant', 'Sure, go ahead.', 'neutral');
  QUESTIONS.forEach(([question, , reply], index) => {
    say('ai', question, null);
    say('participant', reply, index % 5 === 3 ? 'negative' : index % 2 === 0 ? 'positive' : 'neutral');
    if (index === 6) {
      say('ai', 'You mentioned the shipping cost. What would have helped you there?', null);
      say(
        'participant',
        `Seeing it in the basket already. ${WORLD.hebrewSentence}, as my colleague would put it, but only once I know the full price.`,
        'neutral',
      );
    }
    if (index === 9) {
      say('ai', 'Could you say more about the discount code?', null);
      say('participant', 'The field did not trim the space I pasted, so it said the code was invalid. Annoying, but I figured it out.', 'negative');
    }
  });
  say('ai', 'That is everything. Thank you very much!', null);
  return {
    organization: { name: 'Northwind Research', logo: null, brandColor: '#0F766E' },
    campaign: { id: 'cmp_checkout_q4', name: 'Checkout experience study' },
    session: {
      id: 'ses_01JD6W4Q0F8ZK2',
      participant: { name: 'Zofia Wójcik', email: 'zofia.wojcik@example.com' },
      startedAt: new Date('2026-11-25T14:06:12Z'),
      completedAt: new Date('2026-11-25T14:18:17Z'),
      durationSeconds: 725,
      language: 'en',
      status: 'completed',
      completionStatus: 'completed',
      questionsAnswered: 18,
      totalQuestions: 20,
      sentiment: { overall: 'positive', score: 0.62 },
    },
    answers: QUESTIONS.map(([questionText, value]) => ({ questionText, value })),
    insights: {
      summary:
        'The participant found the checkout quick and would buy again, but was held up twice: the shipping cost appeared only on the last step, and a pasted discount code failed because of a trailing space. Delivery in two days and the confirmation email were received well.',
      keyQuotes: [
        { text: 'The shipping cost only showed up on the last step, and that made me stop for a moment.', utteranceId: 'utt_16', startTime: 131 },
        { text: 'The field did not trim the space I pasted, so it said the code was invalid.', utteranceId: 'utt_26', startTime: 3725 },
        { text: WORLD.greek, utteranceId: 'utt_33', startTime: null },
      ],
      actionItems: [
        'Show the shipping cost in the basket, before the address step.',
        'Trim whitespace around discount codes before validating them.',
        'Offer the returns policy as a short summary at checkout.',
      ],
      topics: [
        { label: 'Shipping costs', utteranceCount: 5 },
        { label: 'Discount codes', utteranceCount: 4 },
        { label: 'Delivery', utteranceCount: 3 },
        { label: 'Customer service', utteranceCount: 1 },
      ],
    },
    utterances,
    generatedAt: new Date('2026-11-26T09:30:00Z'),
    ...overrides,
  };
}

const LONG_PARAGRAPH =
  'What I keep coming back to is the moment between putting things in the basket and actually paying. On the phone the page jumps when the keyboard opens, the total moves further down, and by the time I have typed my postcode I have forgotten what the delivery option cost. I would rather see one short summary that stays on screen — items, delivery, discount, total — and have the form scroll underneath it. ';

/** A 250-utterance interview of about 75 minutes, with long answers and every script above. */
function longReport(): SessionReport {
  const scripts = Object.values(WORLD);
  const utterances: SessionReport['utterances'] = Array.from({ length: 250 }, (_, index) => {
    const participant = index % 2 === 1;
    const startTime = index * 18 + 3;
    let text: string;
    if (!participant) text = `Question ${Math.floor(index / 2) + 1}: could you tell me a little more about that, and about what you expected to happen next?`;
    else if (index % 7 === 1) text = LONG_PARAGRAPH.repeat(1 + (index % 3));
    else text = `Answer ${Math.floor(index / 2) + 1}. ${scripts[Math.floor(index / 2) % scripts.length]} — that is how I would put it.`;
    const sentiment = participant ? (['positive', 'neutral', 'negative'] as const)[index % 3]! : null;
    return { id: `utt_${index + 1}`, speaker: participant ? 'participant' : 'ai', text, startTime, endTime: startTime + 15, sentiment };
  });
  return sampleReport({
    session: { ...sampleReport().session, id: 'ses_long_7Q2M', durationSeconds: 4512 },
    utterances,
  });
}

// ---------------------------------------------------------------------------------------------
// Poppler.

let dir: string;

async function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of doc) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function renderToFile(name: string, report: SessionReport, options: SessionReportOptions, fonts?: ReportFonts): Promise<string> {
  const file = path.join(dir, `${name}.pdf`);
  await writeFile(file, await collect(renderSessionReport(report, options, fonts)));
  return file;
}

/** pdftotext with runs of whitespace (line breaks of wrapped lines included) made single spaces. */
async function textOf(file: string, pages?: { first: number; last: number }): Promise<string> {
  const range = pages ? ['-f', String(pages.first), '-l', String(pages.last)] : [];
  const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', ...range, file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.replace(/\s+/g, ' ');
}

async function infoOf(file: string): Promise<Record<string, string>> {
  const { stdout } = await run('pdfinfo', ['-isodates', '-enc', 'UTF-8', file]);
  const fields = stdout.split('\n').flatMap((line) => {
    const match = /^([^:]+):\s*(.*)$/.exec(line);
    return match ? [[match[1]!, match[2]!] as const] : [];
  });
  return Object.fromEntries(fields);
}

/** [name, embedded] per font, from pdffonts. */
async function fontsOf(file: string): Promise<[string, boolean][]> {
  const { stdout } = await run('pdffonts', [file]);
  return stdout
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const columns = line.trim().split(/\s+/);
      // name type [type] encoding emb sub uni object ID: "emb" is the fifth column from the end.
      return [columns[0]!.replace(/^[A-Z]{6}\+/, ''), columns[columns.length - 5] === 'yes'];
    });
}

interface Word {
  text: string;
  xMin: number;
  xMax: number;
  yMin: number;
  yMax: number;
}

/** Every word with its box, per page (points, origin top left). */
async function wordsOf(file: string): Promise<Word[][]> {
  const { stdout } = await run('pdftotext', ['-bbox', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout
    .split('<page ')
    .slice(1)
    .map((page) =>
      Array.from(page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g), (m) => ({
        xMin: Number(m[1]),
        yMin: Number(m[2]),
        xMax: Number(m[3]),
        yMax: Number(m[4]),
        text: m[5]!,
      })),
    );
}

/** The page as RGB pixels (pdftoppm writes binary PPM without -png). */
async function pixelsOf(file: string, page: number): Promise<Buffer> {
  const prefix = path.join(dir, `pixels-${path.basename(file, '.pdf')}-${page}`);
  await run('pdftoppm', ['-r', '40', '-f', String(page), '-l', String(page), '-singlefile', file, prefix]);
  const ppm = await readFile(`${prefix}.ppm`);
  // Header: "P6\n<width> <height>\n255\n".
  let newlines = 0;
  let at = 0;
  while (newlines < 3) if (ppm[at++] === 0x0a) newlines++;
  return ppm.subarray(at);
}

function hasColour(pixels: Buffer, near?: string): boolean {
  const target = near ? [1, 3, 5].map((at) => parseInt(near.slice(at, at + 2), 16)) : null;
  for (let at = 0; at + 2 < pixels.length; at += 3) {
    const [r, g, b] = [pixels[at]!, pixels[at + 1]!, pixels[at + 2]!];
    if (target ? Math.abs(r - target[0]!) + Math.abs(g - target[1]!) + Math.abs(b - target[2]!) < 24 : Math.max(r, g, b) - Math.min(r, g, b) > 24) return true;
  }
  return false;
}

async function saveArtifacts(file: string, name: string, pages: number[]): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  for (const page of pages)
    await run('pdftoppm', ['-png', '-r', '60', '-f', String(page), '-l', String(page), '-singlefile', file, path.join(ARTIFACTS, `${name}-p${page}`)]);
}

// ---------------------------------------------------------------------------------------------

describe('report formatting', () => {
  it('writes dates in UTC, durations in minutes and seconds, timestamps past an hour with hours', () => {
    expect(formatReportDate(new Date('2026-11-25T14:06:59.900Z'))).toBe('25 Nov 2026, 14:06 UTC');
    expect(formatDuration(725)).toBe('12 min 5 s');
    expect(formatDuration(40)).toBe('40 s');
    expect(formatDuration(3900)).toBe('1 h 5 min');
    expect(formatTimestamp(187.6)).toBe('[03:07]');
    expect(formatTimestamp(3727)).toBe('[1:02:07]');
  });

  it('accepts a well-formed PNG and refuses one whose image data is corrupt', () => {
    expect(isDecodablePng(logoPng())).toBe(true);
    expect(isDecodablePng(logoPng(96, 48, Buffer.from([0x78, 0x9c, 1, 2, 3, 4, 5, 6, 7, 8])))).toBe(false);
    expect(isDecodablePng(Buffer.from('not a png at all'))).toBe(false);
  });
});

describe.skipIf(!hasPoppler)('session report PDF (checked with poppler)', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'interview-report-pdf-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a German session reads in German: labels, status, dates, yes/no, page numbers', async () => {
    const german = sampleReport({ session: { ...sampleReport().session, language: 'de', completionStatus: 'timed_out' } });
    const file = await renderToFile('sample-german', german, ALL_ON);
    await saveArtifacts(file, 'sample-german', [1]);
    const text = await textOf(file);
    for (const expected of [
      'Interviewbericht',
      // The facts' labels are set in capitals.
      'TEILNEHMER/IN',
      'KAMPAGNE',
      'BEANTWORTETE FRAGEN',
      '25. Nov. 2026, 14:06 UTC',
      'Abgeschlossen (Zeit abgelaufen)',
      '18 von 20',
      'SPRACHE',
      'Deutsch (de)',
      'GESAMTSTIMMUNG',
      'Positiv (Wert 0.62)',
      'Antworten',
      'Erkenntnisse',
      'Zusammenfassung',
      'Wichtige Zitate',
      'Maßnahmen',
      'Themen',
      'Shipping costs (5 Äußerungen)',
      'Customer service (1 Äußerung)',
      'Transkript',
      'Seite 1 von',
      'Erstellt am 26. Nov. 2026, 09:30 UTC',
    ]) {
      expect(text, expected).toContain(expected);
    }
    for (const english of ['Interview report', 'PARTICIPANT', 'QUESTIONS ANSWERED', 'Page 1 of', 'Generated']) expect(text).not.toContain(english);
    // Yes/no answers in German.
    expect(text).toMatch(/Did you create an account before buying\? Nein/);
  });

  it('shows the participant, campaign, facts, answers, insights and transcript with every option on', async () => {
    const file = await renderToFile('sample-default', sampleReport(), ALL_ON);
    const text = await textOf(file);
    for (const expected of [
      'Interview report',
      'Checkout experience study',
      'Zofia Wójcik',
      'zofia.wojcik@example.com',
      '25 Nov 2026, 14:06 UTC',
      '12 min 5 s',
      'Completed',
      '18 of 20',
      'Answers',
      'Insights',
      'Summary',
      'Key quotes',
      'Action items',
      'Topics',
      'Shipping costs (5 utterances)',
      'Customer service (1 utterance)',
      'Transcript',
      'Interviewer',
      'Participant',
      '“The shipping cost only showed up on the last step, and that made me stop for a moment.” [02:11]',
      '“The field did not trim the space I pasted, so it said the code was invalid.” [1:02:05]',
      `“${WORLD.greek}”`,
      'Trim whitespace around discount codes before validating them.',
    ]) {
      expect(text).toContain(expected);
    }
    for (const expected of Object.values(WORLD)) expect(text).toContain(expected);
    // Answers: numbers as they are, booleans as Yes/No, unanswered as a dash.
    expect(text).toMatch(/How would you rate the checkout overall, from 1 to 10\? 8 /);
    expect(text).toMatch(/Did you create an account before buying\? No /);
    expect(text).toMatch(/Was the delivery date shown clearly\? Yes /);
    expect(text).toMatch(/Did you read the returns policy\? — /);
    expect(text).toMatch(TIMESTAMP);
    expect(text).toContain('[00:04]');
    expect(text).toMatch(/overall sentiment/i);
    expect(text).toContain('Positive (score 0.62)');
    expect(text).toMatch(/● negative/);
    await saveArtifacts(file, 'sample-default', [1, 2, 3]);
  });

  it('sets the title, author, creator and creation date', async () => {
    const info = await infoOf(await renderToFile('metadata', sampleReport(), ALL_ON));
    expect(info.Title).toBe('Interview report — Checkout experience study');
    expect(info.Author).toBe('Northwind Research');
    expect(info.Creator).toBe('Interview Service');
    expect(info.CreationDate).toMatch(/^2026-11-26T09:30:00(Z|\+00(:00)?)$/);
  });

  it('embeds DejaVu Sans regular and bold and no other font', async () => {
    const fonts = await fontsOf(await renderToFile('fonts', sampleReport(), ALL_ON));
    expect(fonts.map(([name]) => name).sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold']);
    expect(fonts.every(([, embedded]) => embedded)).toBe(true);
  });

  it('leaves out timestamps, sentiment and insights when each is turned off (insights off: the report has none)', async () => {
    const text = await textOf(await renderToFile('all-off', sampleReport({ insights: null }), ALL_OFF));
    expect(text).not.toMatch(TIMESTAMP);
    expect(text).not.toMatch(SENTIMENT_WORD);
    expect(text).not.toMatch(/overall sentiment/i);
    for (const heading of ['Insights', 'Key quotes', 'Action items', 'Topics']) expect(text).not.toContain(heading);
    expect(text).not.toContain('Trim whitespace around discount codes');
    // The rest is still there.
    expect(text).toContain('Zofia Wójcik');
    expect(text).toContain('Transcript');
    expect(text).toContain('The field did not trim the space I pasted');
  });

  it('turns each option off on its own without touching the others', async () => {
    const noTimestamps = await textOf(await renderToFile('no-timestamps', sampleReport(), { ...ALL_ON, include_timestamps: false }));
    expect(noTimestamps).not.toMatch(TIMESTAMP);
    expect(noTimestamps).toContain('“The shipping cost only showed up on the last step, and that made me stop for a moment.”');
    expect(noTimestamps).toMatch(SENTIMENT_WORD);

    const noSentiment = await textOf(await renderToFile('no-sentiment', sampleReport(), { ...ALL_ON, include_sentiment: false }));
    expect(noSentiment).not.toMatch(SENTIMENT_WORD);
    expect(noSentiment).not.toMatch(/overall sentiment/i);
    expect(noSentiment).toMatch(TIMESTAMP);
    expect(noSentiment).toContain('Key quotes');

    const noInsights = await textOf(await renderToFile('no-insights', sampleReport({ insights: null }), ALL_ON));
    expect(noInsights).not.toContain('Key quotes');
    expect(noInsights).not.toContain('Insights');
    expect(noInsights).toMatch(TIMESTAMP);
    expect(noInsights).toMatch(SENTIMENT_WORD);
  });

  it('paginates a long transcript with "Page N of M" and the session in every footer', async () => {
    const file = await renderToFile('long-default', longReport(), ALL_ON);
    const pages = Number((await infoOf(file)).Pages);
    expect(pages).toBeGreaterThan(5);
    expect(await textOf(file, { first: 1, last: 1 })).toContain(`Page 1 of ${pages}`);
    for (let page = 1; page <= pages; page++) {
      const text = await textOf(file, { first: page, last: page });
      expect(text).toContain(`Page ${page} of ${pages}`);
      expect(text).toContain('Session ses_long_7Q2M · Generated 26 Nov 2026, 09:30 UTC');
    }
    const text = await textOf(file);
    expect(text).toContain('[1:14:45]');
    for (const expected of Object.values(WORLD)) expect(text).toContain(expected);
    await saveArtifacts(file, 'long-default', [2, 3, pages]);
  });

  it('never leaves a speaker label at the foot of a page without its first line, nor text in the footer', async () => {
    const file = await renderToFile('long-minimal', longReport(), { ...ALL_ON, branding: 'minimal' });
    const pages = await wordsOf(file);
    expect(pages.length).toBeGreaterThan(5);
    // The footer rule is 40 pt above the bottom edge, the content ends 14 pt above it.
    const contentBottom = 841.89 - 40 - 14;
    let labels = 0;
    pages.forEach((words) => {
      for (const word of words.filter((candidate) => candidate.yMin < contentBottom)) expect(word.yMax).toBeLessThanOrEqual(contentBottom + 1);
      for (const word of words) expect(word.xMax).toBeLessThanOrEqual(RIGHT_MARGIN + 1);
      const gutterEnd = 50 + 92;
      for (const label of words.filter((word) => (word.text === 'Interviewer' || word.text === 'Participant') && word.xMin < gutterEnd)) {
        const next = words[words.indexOf(label) + 1];
        if (next?.text === '(cont.)') continue;
        labels++;
        const firstLine = words.filter((word) => word.xMin >= gutterEnd && Math.abs(word.yMax - label.yMax) < 3);
        expect(firstLine.length, `label at y=${label.yMin} has no text beside it`).toBeGreaterThan(0);
      }
    });
    expect(labels).toBeGreaterThanOrEqual(250);
    await saveArtifacts(file, 'long-minimal', [1, 3, 4]);
  });

  it('draws minimal branding in black and grey only, and default branding in its accent', async () => {
    const minimal = await renderToFile('sample-minimal', sampleReport(), { ...ALL_ON, branding: 'minimal' });
    expect(hasColour(await pixelsOf(minimal, 1))).toBe(false);
    expect(hasColour(await pixelsOf(minimal, 2))).toBe(false);
    const text = await textOf(minimal);
    expect(text).toContain('Interview report');
    expect(text).toContain('negative');
    const standard = await renderToFile('sample-default-colour', sampleReport(), ALL_ON);
    expect(hasColour(await pixelsOf(standard, 1), DEFAULT_BRAND_COLOR)).toBe(true);
    await saveArtifacts(minimal, 'sample-minimal', [1, 2]);
  });

  it('shows the organization, its logo and its colour with custom branding', async () => {
    const report = sampleReport({ organization: { name: 'Northwind Research', logo: logoPng(), brandColor: '#0F766E' } });
    const file = await renderToFile('sample-custom', report, { ...ALL_ON, branding: 'custom' });
    expect(await textOf(file, { first: 1, last: 1 })).toContain('Northwind Research');
    expect(await textOf(file, { first: 2, last: 2 })).toContain('Northwind Research · Interview report · Checkout experience study');
    const { stdout } = await run('pdfimages', ['-list', file]);
    expect(stdout.trim().split('\n').length - 2).toBeGreaterThanOrEqual(1);
    expect(hasColour(await pixelsOf(file, 1), '#0F766E')).toBe(true);
    await saveArtifacts(file, 'sample-custom', [1, 2]);
  });

  it('renders custom branding without the logo when the logo cannot be read, and falls back to the default colour', async () => {
    for (const [name, logo] of [
      ['corrupt-png', logoPng(96, 48, Buffer.from([0x78, 0x9c, 1, 2, 3, 4, 5, 6, 7, 8]))],
      ['not-an-image', Buffer.from('GIF89a but not really')],
      ['truncated-jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00])],
    ] as const) {
      const file = await renderToFile(`custom-${name}`, sampleReport({ organization: { name: 'Northwind Research', logo, brandColor: null } }), {
        ...ALL_ON,
        branding: 'custom',
      });
      expect(await textOf(file, { first: 1, last: 1 })).toContain('Northwind Research');
      const { stdout } = await run('pdfimages', ['-list', file]);
      expect(stdout.trim().split('\n').length - 2).toBe(0);
      expect(hasColour(await pixelsOf(file, 1), DEFAULT_BRAND_COLOR)).toBe(true);
    }
  });

  it('keeps a right-to-left paragraph in reading order', async () => {
    const report = sampleReport();
    report.utterances = [
      { id: 'he', speaker: 'participant', text: `${WORLD.hebrewSentence}. ${WORLD.hebrew} 2026!`, startTime: 1, endTime: 5, sentiment: null },
    ];
    const text = await textOf(await renderToFile('hebrew', report, ALL_ON));
    expect(text).toContain(WORLD.hebrewSentence);
    expect(text).toContain(WORLD.hebrew);
  });

  it('renders an empty session and hostile text without failing', async () => {
    const empty = sampleReport({
      organization: { name: '', logo: null, brandColor: 'red' },
      session: {
        ...sampleReport().session,
        participant: { name: null, email: null },
        startedAt: null,
        completedAt: null,
        language: '',
        sentiment: null,
        completionStatus: null,
        status: 'in_progress',
      },
      answers: [],
      insights: { summary: '', keyQuotes: [], actionItems: [], topics: [] },
      utterances: [],
    });
    const emptyFile = await renderToFile('empty', empty, { ...ALL_ON, branding: 'custom' });
    await saveArtifacts(emptyFile, 'empty', [1]);
    const emptyText = await textOf(emptyFile);
    expect(emptyText).toContain('In progress');
    expect(emptyText).toContain('No utterances were recorded.');
    expect(emptyText).toContain('Page 1 of 1');

    const url = `https://example.com/${'checkout/'.repeat(40)}`;
    const hostile = sampleReport({
      campaign: { id: 'cmp', name: `A campaign whose name goes on and on ${'and on '.repeat(30)}` },
      utterances: [
        {
          id: 'u1',
          speaker: 'participant',
          text: `First paragraph.\n\nSecond paragraph after a blank line.\r\nThird\tone.`,
          startTime: 1,
          endTime: 2,
          sentiment: 'neutral',
        },
        { id: 'u2', speaker: 'participant', text: url, startTime: 3, endTime: 4, sentiment: null },
        {
          id: 'u3',
          speaker: 'ai',
          text: 'Control \u0007 and override \u202Ereversed\u202C, a lone \uD800 surrogate, e\u0301 decomposed, 👩‍👩‍👧 family, ‏marks‎.',
          startTime: 5,
          endTime: 6,
          sentiment: 'negative',
        },
        { id: 'u4', speaker: 'participant', text: '', startTime: 7, endTime: 8, sentiment: null },
      ],
    });
    const file = await renderToFile('hostile', hostile, { ...ALL_ON, branding: 'custom' });
    const text = await textOf(file);
    expect(text).toContain('Second paragraph after a blank line.');
    expect(text).toContain('Third one.');
    expect(text).toContain('override reversed, a lone');
    expect(text).toContain('é decomposed');
    // The unbroken address is cut across lines, none of which runs past the right margin.
    expect(text.replace(/ /g, '')).toContain(url);
    for (const words of await wordsOf(file)) for (const word of words) expect(word.xMax).toBeLessThanOrEqual(RIGHT_MARGIN + 1);
    await saveArtifacts(file, 'hostile', [1, 2]);
  });

  it('does not fail on characters no font has, and draws them with a fallback font when given one', async () => {
    const report = sampleReport();
    report.utterances = [
      { id: 'cjk', speaker: 'participant', text: '我很喜欢这个结账流程。The rest of this sentence is Latin.', startTime: 1, endTime: 5, sentiment: null },
      { id: 'thai', speaker: 'participant', text: 'ขอบคุณมาก for the quick delivery', startTime: 6, endTime: 9, sentiment: null },
    ];
    const plain = await textOf(await renderToFile('uncovered', report, ALL_ON));
    expect(plain).toContain('The rest of this sentence is Latin.');
    expect(plain).toContain('for the quick delivery');
    // What no font has is drawn as a box, each taking the room of one.
    expect(plain).toContain('□□□□□□□□□□□The rest of this sentence is Latin.');
    if (!existsSync(THAI_FONT)) {
      console.log(`skipping the fallback font check: ${THAI_FONT} not found (apt-get install fonts-noto-core)`);
      return;
    }
    const file = await renderToFile('fallback', report, ALL_ON, { fallback: THAI_FONT });
    expect(await textOf(file)).toContain('ขอบคุณมาก for the quick delivery');
    const fonts = await fontsOf(file);
    expect(fonts).toContainEqual(['NotoSansThai-Regular', true]);
  });
});

describe.skipIf(!hasPoppler)('session reports rendered in a worker thread (report-renderer)', () => {
  let renderer: ReportRenderer;
  let work: string;
  beforeAll(async () => {
    renderer = createReportRenderer({});
    work = await mkdtemp(path.join(tmpdir(), 'interview-report-thread-'));
    // Where pixelsOf renders pages (the describe above has removed its own).
    dir = work;
  });
  afterAll(async () => {
    await renderer.close();
    await rm(work, { recursive: true, force: true });
  });

  async function pdfFile(name: string, bytes: Buffer): Promise<string> {
    const file = path.join(work, `${name}.pdf`);
    await writeFile(file, bytes);
    return file;
  }

  it('answers the PDF the page would stream: the same text, the logo (its bytes cloned into the thread) and colour; renders one after another', async () => {
    const report = sampleReport({ organization: { name: 'Northwind Research', logo: logoPng(), brandColor: '#0F766E' } });
    const options: SessionReportOptions = { ...ALL_ON, branding: 'custom' };
    const [threaded, long] = await Promise.all([renderer.render(report, options), renderer.render(longReport(), ALL_OFF)]);
    const here = await collect(renderSessionReport(report, options));
    const threadedFile = await pdfFile('threaded', threaded);
    expect(threaded.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await textOf(threadedFile)).toBe(await textOf(await pdfFile('in-process', here)));
    const { stdout } = await run('pdfimages', ['-list', threadedFile]);
    expect(stdout.trim().split('\n').length - 2).toBeGreaterThanOrEqual(1);
    expect(hasColour(await pixelsOf(threadedFile, 1), '#0F766E')).toBe(true);
    expect(Number((await infoOf(await pdfFile('long', long))).Pages)).toBeGreaterThan(3);
  });

  it("closing a renderer fails what it still held, and only that: the process's other renderers share the thread and go on", async () => {
    const closing = createReportRenderer({});
    const held = expect(closing.render(longReport(), ALL_ON)).rejects.toThrow('the report renderer was closed');
    const other = renderer.render(sampleReport(), ALL_OFF);
    await closing.close();
    await held;
    expect((await other).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await closing.render(sampleReport(), ALL_OFF)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
