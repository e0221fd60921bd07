import { findNumbers } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import { escapeRegExp } from '../lib/escape-reg-exp.js';

/**
 * PII redaction, exactly design.md's scope: emails; phone numbers in international form and the
 * national forms of common regions (through libphonenumber's full metadata, so only numbers that
 * are valid for some region count); card numbers only when Luhn-valid; SSNs in 123-45-6789 form,
 * or undashed when the words around them say SSN. Dates, prices, versions and order numbers are
 * not PII. Each item is replaced whole (a phone's "+44", brackets and separators included).
 */

const PII_KINDS = ['email', 'phone', 'card', 'ssn'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

export const PII_MARKERS: Record<PiiKind, string> = {
  email: '[EMAIL REDACTED]',
  phone: '[PHONE REDACTED]',
  card: '[CARD REDACTED]',
  ssn: '[SSN REDACTED]',
};

export interface PiiSpan {
  kind: PiiKind;
  start: number;
  end: number;
}

/** National forms are read as these regions' numbers (international ones whatever their region). */
const PHONE_REGIONS: CountryCode[] = ['US', 'GB', 'DE', 'FR', 'NL', 'IN'];

const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?)*\.\p{L}{2,}(?![\p{L}\p{N}-])/gu;

/** Digit runs with single spaces or dashes between groups: candidates for card numbers. */
const DIGIT_RUN = /(?<![\p{L}\p{N}])\d+(?:[ -]\d+)*(?![\p{L}\p{N}])/gu;

const DASHED_SSN = /(?<![\d-])(\d{3})-(\d{2})-(\d{4})(?![\d-])/g;
const UNDASHED_SSN = /(?<![\d-])(\d{3})[ ]?(\d{2})[ ]?(\d{4})(?![\d-])/g;
const SSN_CONTEXT = /\b(?:ssn|ss#|social security|social-security|soc\.? sec)\b/i;

/** Words before a number that say it is not a phone number; "phone", "call" and the like say it is. */
const NOT_A_PHONE = /\b(?:order|orders|ticket|invoice|inv|ref|reference|tracking|account|acct|routing|iban|isbn|sku|serial|case|employee|id|version|build|confirmation|booking|policy|member|membership|customer|transaction|receipt|po|zip|postal|postcode|pin code|batch|lot|part|model|item|reservation|license|licence|claim|contract|shipment|parcel|package|badge|fedex|ups|dhl|usps|quote)\b[^.!?\n]{0,40}$/i;
const A_PHONE = /\b(?:phone|mobile|cell|cellphone|call|calls|called|text|txt|whatsapp|tel|telephone|fax|landline|ring|reach|dial)\b[^.!?\n]{0,20}$/i;

/** National numbers are 8 to 13 digits in every region above; shorter or longer runs are something else. */
const NATIONAL_DIGITS = { min: 8, max: 13 };

/**
 * Numbers libphonenumber's matcher can take for phones that are plainly something else: year
 * ranges, IP addresses and versions (three or more dots, except the French way of writing phone
 * numbers in dotted pairs, "06.12.34.56.78"), and amounts written with space-separated thousands
 * ("3 500 000"). Dates never reach it (maskDates).
 */
function looksLikeSomethingElse(candidate: string): boolean {
  return (
    /^(?:19|20)\d{2}\s*[-–—]\s*(?:19|20)\d{2}$/.test(candidate) ||
    ((candidate.match(/\./g) ?? []).length >= 3 && !/^0\d(?:\.\d{2}){4}$/.test(candidate)) ||
    /^[1-9]\d{0,2}(?: \d{3})+$/.test(candidate)
  );
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Payment cards: 13–19 digits, issued by a bank (first digit 2–6), Luhn-valid, separators used consistently. */
function isCardNumber(candidate: string): boolean {
  const separators = new Set(candidate.replace(/\d/g, ''));
  if (separators.size > 1) return false;
  const digits = candidate.replace(/\D/g, '');
  return digits.length >= 13 && digits.length <= 19 && /^[2-6]/.test(digits) && luhnValid(digits);
}

function findCards(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const match of text.matchAll(DIGIT_RUN)) {
    // A card may sit in a longer run ("4111 1111 1111 1111 2024"): try every group-aligned piece, longest first.
    const groups = [...match[0].matchAll(/\d+/g)].map((group) => ({ start: match.index + group.index, end: match.index + group.index + group[0].length }));
    let from = 0;
    while (from < groups.length) {
      let found: PiiSpan | undefined;
      for (let to = groups.length - 1; to >= from && !found; to--) {
        const candidate = text.slice(groups[from]!.start, groups[to]!.end);
        if (isCardNumber(candidate)) found = { kind: 'card', start: groups[from]!.start, end: groups[to]!.end };
      }
      if (found) {
        spans.push(found);
        from = groups.findIndex((group) => group.end === found!.end) + 1;
      } else {
        from += 1;
      }
    }
  }
  return spans;
}

function plausibleSsn(area: string, group: string, serial: string): boolean {
  return area !== '000' && area !== '666' && area[0] !== '9' && group !== '00' && serial !== '0000';
}

function findSsns(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const match of text.matchAll(DASHED_SSN)) {
    if (plausibleSsn(match[1]!, match[2]!, match[3]!)) spans.push({ kind: 'ssn', start: match.index, end: match.index + match[0].length });
  }
  for (const match of text.matchAll(UNDASHED_SSN)) {
    if (!plausibleSsn(match[1]!, match[2]!, match[3]!)) continue;
    // Undashed nine digits are an SSN only when the words just before or after them say so.
    const before = text.slice(Math.max(0, match.index - 60), match.index).split(/[!?\n]/).at(-1)!;
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 30);
    if (SSN_CONTEXT.test(before) || /^\W{0,3}\(?(?:ssn|social security)/i.test(after)) {
      spans.push({ kind: 'ssn', start: match.index, end: match.index + match[0].length });
    }
  }
  return spans;
}

/**
 * Dates as people write them: day and month either way round then the year (`05.12.2024`,
 * `5.12.2024`, `05/12/2024`, `12/05/24`, `05-12-2024`, German `05. 12. 2024`), or the year first
 * (`2024-12-05`, `2024/12/05`, `2024.12.05`). One separator throughout.
 */
const DATE = /(?<![\p{N}+])(?:(?<a>\d{1,2})(?<sep>[./-]|\. )(?<b>\d{1,2})\k<sep>(?<year>(?:19|20)?\d{2})|(?<yearFirst>(?:19|20)\d{2})(?<sepFirst>[./-])(?<month>\d{1,2})\k<sepFirst>(?<day>\d{1,2}))(?!\p{N})/gu;

function isDate(match: RegExpMatchArray, text: string): boolean {
  const { a, b, sep, yearFirst, sepFirst, month, day } = match.groups!;
  const separator = (sep ?? sepFirst)!.trim();
  const start = match.index!;
  const end = start + match[0].length;
  // "06.12.34.56.78" starts (and "33.06.12.34" ends) like a date; a further group with the same separator says it is not one.
  if (text.charAt(end) === separator && /\p{N}/u.test(text.charAt(end + 1))) return false;
  if (text.charAt(start - 1) === separator && /\p{N}/u.test(text.charAt(start - 2))) return false;
  const inRange = (value: string, max: number) => Number(value) >= 1 && Number(value) <= max;
  if (yearFirst !== undefined) return inRange(month!, 12) && inRange(day!, 31);
  return inRange(a!, 31) && inRange(b!, 31) && (inRange(a!, 12) || inRange(b!, 12));
}

/**
 * The text with every date's characters replaced by a letter (offsets kept), for phone detection:
 * libphonenumber takes a date such as 05.12.2024 for a national number, or runs a date into the
 * digits after it ("05.12.2024, 06"). A date is never a phone number, whatever the words around it.
 */
function maskDates(text: string): string {
  let masked = text;
  for (const match of text.matchAll(DATE)) {
    if (!isDate(match, text)) continue;
    masked = masked.slice(0, match.index) + 'd'.repeat(match[0].length) + masked.slice(match.index + match[0].length);
  }
  return masked;
}

function findPhones(original: string): PiiSpan[] {
  const text = maskDates(original);
  const spans: PiiSpan[] = [];
  const consider = (start: number, end: number) => {
    const candidate = text.slice(start, end);
    if (/^(?:\+|00)/.test(candidate)) {
      spans.push({ kind: 'phone', start, end });
      return;
    }
    const digits = candidate.replace(/\D/g, '');
    if (digits.length < NATIONAL_DIGITS.min || digits.length > NATIONAL_DIGITS.max || looksLikeSomethingElse(candidate)) return;
    // Outside North America and Indian mobiles (ten digits), a national number is written with its trunk prefix 0.
    if (!/^[01(]/.test(candidate) && digits.length !== 10) return;
    // Part of a longer identifier ("Q-2024-7718", "AB/55-2210") is not a phone number.
    if (/[\p{L}\p{N}][-/]$/u.test(text.slice(Math.max(0, start - 2), start)) || /^[-/]?[\p{L}\p{N}]/u.test(text.slice(end, end + 2))) return;
    // An order, ticket or account number can look like a national phone number; the words before it tell.
    const before = text.slice(Math.max(0, start - 60), start);
    if (NOT_A_PHONE.test(before) && !A_PHONE.test(before)) return;
    spans.push({ kind: 'phone', start, end });
  };
  for (const region of PHONE_REGIONS) {
    for (const found of findNumbers(text, { defaultCountry: region, v2: true })) consider(found.startsAt, found.endsAt);
  }
  // With its country code a number says it is a phone number: possible is enough, valid is not needed
  // (new ranges, and the ranges set aside for drama and documentation, are still someone's number).
  // `leniency` is a documented option of the matcher (PhoneNumberMatcher) that the type declarations leave out.
  for (const found of findNumbers(text, { v2: true, leniency: 'POSSIBLE' } as { v2: true })) {
    if (/^(?:\+|00)/.test(text.slice(found.startsAt, found.endsAt))) consider(found.startsAt, found.endsAt);
  }
  return spans;
}

/** Where the PII is, without overlaps: an email, then a card, then an SSN, then a phone wins a contested span. */
export function findPii(text: string): PiiSpan[] {
  const emails = [...text.matchAll(EMAIL)].map((match): PiiSpan => ({ kind: 'email', start: match.index, end: match.index + match[0].length }));
  // Cards, SSNs and phones are digits (libphonenumber reads any script's decimal digits): without one there is none.
  if (!/\p{Nd}/u.test(text)) return emails;
  const byPriority = [...emails, ...findCards(text), ...findSsns(text), ...findPhones(text).sort((a, b) => b.end - b.start - (a.end - a.start))];
  const kept: PiiSpan[] = [];
  for (const span of byPriority) {
    if (!kept.some((other) => span.start < other.end && other.start < span.end)) kept.push(span);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** The text with every PII item replaced by its marker. */
export function redactPii(text: string): string {
  return replaceSpans(text, findPii(text));
}

/** The text with each of these spans (in order, without overlaps, as findPii gives them) replaced by its marker. */
function replaceSpans(text: string, spans: PiiSpan[]): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + PII_MARKERS[span.kind];
    at = span.end;
  }
  return out + text.slice(at);
}

/** Parts of an item that may turn up alone in text made from it: digit groups, an email's local part. */
function fragmentsOf(kind: PiiKind, value: string): string[] {
  if (kind === 'email') {
    const local = value.slice(0, value.indexOf('@'));
    return local.length >= 3 ? [local] : [];
  }
  return value.match(/\d{3,}/g) ?? [];
}

/**
 * Redaction for everything made from one session's words. The utterances themselves are redacted
 * whole, so items that need their context (an undashed SSN after "social security") are found.
 * Pieces taken from them or written about them (key quotes, action items, keywords, an LLM's
 * summary or topic labels) may have lost that context, so a piece gets its own detection, then
 * every item found in the session's utterances wherever it appears, then the parts of those items
 * (digit groups, an email's local part) as whole words: a fragment of a number or an address
 * cannot slip through. Over-redacting a coincidental "7946" is the price of never leaking one.
 */
export class SessionRedactor {
  readonly #items: { kind: PiiKind; pattern: RegExp }[] = [];
  readonly #spans = new Map<string, PiiSpan[]>();

  constructor(utteranceTexts: Iterable<string>) {
    const values = new Map<string, PiiKind>();
    const fragments = new Map<string, PiiKind>();
    for (const text of utteranceTexts) {
      for (const span of this.#spansOf(text)) {
        const value = text.slice(span.start, span.end);
        values.set(value, span.kind);
        for (const fragment of fragmentsOf(span.kind, value)) if (!values.has(fragment)) fragments.set(fragment, span.kind);
      }
    }
    // Longest first, so a whole item is replaced before its parts are looked for.
    for (const [value, kind] of [...values].sort((a, b) => b[0].length - a[0].length)) {
      this.#items.push({ kind, pattern: new RegExp(escapeRegExp(value), 'giu') });
    }
    for (const [fragment, kind] of [...fragments].sort((a, b) => b[0].length - a[0].length)) {
      this.#items.push({ kind, pattern: new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(fragment)}(?![\\p{L}\\p{N}])`, 'giu') });
    }
  }

  #spansOf(text: string): PiiSpan[] {
    let spans = this.#spans.get(text);
    if (!spans) {
      spans = findPii(text);
      this.#spans.set(text, spans);
    }
    return spans;
  }

  /** An utterance of the session, redacted whole. */
  utterance(text: string): string {
    return replaceSpans(text, this.#spansOf(text));
  }

  /** A piece of text taken from the session's utterances or written about them. */
  piece(text: string): string {
    let out = redactPii(text);
    for (const item of this.#items) out = out.replace(item.pattern, PII_MARKERS[item.kind]);
    return out;
  }

  /** An utterance's keywords: one that touches a PII item of the utterance is dropped, the others redacted as pieces. */
  keywords(utteranceText: string, keywords: string[]): string[] {
    const spans = this.#spansOf(utteranceText);
    const kept = keywords.filter((keyword) => {
      const pattern = new RegExp(escapeRegExp(keyword), 'giu');
      for (const match of utteranceText.matchAll(pattern)) {
        const end = match.index + match[0].length;
        if (spans.some((span) => match.index < span.end && span.start < end)) return false;
      }
      return true;
    });
    return [...new Set(kept.map((keyword) => this.piece(keyword)))].filter((keyword) => !Object.values(PII_MARKERS).includes(keyword));
  }
}
