import { findNumbers } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import { SPEC_PII_KINDS, type TPiiKind } from '../../shared/schemas/pii.js';
import { escapeRegExp } from '../lib/escape-reg-exp.js';
import { findAddresses } from './pii-addresses.js';
import { findNames } from './pii-names.js';

/**
 * PII redaction. The spec's four kinds (what `redact_pii=true` means, and the default here): emails;
 * phone numbers in international form and the national forms of common regions (through
 * libphonenumber's full metadata, so only numbers that are valid for some region count); card
 * numbers only when Luhn-valid; SSNs in 123-45-6789 form, or undashed when the words around them
 * say SSN. Dates, times, prices, versions and order numbers are not PII, in any of the five
 * interview languages. Asked for by kind (`redact_kinds`): people's names (pii-names.ts) and postal
 * addresses (pii-addresses.ts). Each item is replaced whole (a phone's "+44", brackets and
 * separators included; an address from street to city).
 */

export type PiiKind = TPiiKind;

export const PII_MARKERS: Record<PiiKind, string> = {
  email: '[EMAIL REDACTED]',
  phone: '[PHONE REDACTED]',
  card: '[CARD REDACTED]',
  ssn: '[SSN REDACTED]',
  name: '[NAME REDACTED]',
  address: '[ADDRESS REDACTED]',
};

export interface PiiSpan {
  kind: PiiKind;
  start: number;
  end: number;
}

/** National forms are read as these regions' numbers (international ones whatever their region). */
const PHONE_REGIONS: CountryCode[] = ['US', 'GB', 'DE', 'FR', 'NL', 'IN'];

const EMAIL =
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?)*\.\p{L}{2,}(?![\p{L}\p{N}-])/gu;

/** Digit runs with single spaces or dashes between groups: candidates for card numbers. */
const DIGIT_RUN = /(?<![\p{L}\p{N}])\d+(?:[ -]\d+)*(?![\p{L}\p{N}])/gu;

const DASHED_SSN = /(?<![\d-])(\d{3})-(\d{2})-(\d{4})(?![\d-])/g;
const UNDASHED_SSN = /(?<![\d-])(\d{3})[ ]?(\d{2})[ ]?(\d{4})(?![\d-])/g;
const SSN_CONTEXT = /\b(?:ssn|ss#|social security|social-security|soc\.? sec)\b/i;

/**
 * Words before a number that say it is not a phone number, in the five interview languages; the
 * German and Dutch ones also as the head of a compound ("Bestellnummer", "klantnummer"). "phone",
 * "call" and the like (A_PHONE) say it is.
 */
const NOT_A_PHONE = new RegExp(
  String.raw`(?:\b(?:order|orders|ticket|invoice|inv|ref|reference|tracking|account|acct|routing|iban|isbn|sku|serial|case|employee|id|version|build|confirmation|booking|policy|member|membership|customer|transaction|receipt|po|zip|postal|postcode|pin code|batch|lot|part|model|item|reservation|license|licence|claim|contract|shipment|parcel|package|badge|fedex|ups|dhl|usps|quote|commande|facture|référence|réf|dossier|compte|colis|suivi|réservation|contrat|pedido|factura|referencia|expediente|cuenta|seguimiento|localizador|reserva|contrato|póliza|envío|paquete|recibo|price|prices|cost|costs|paid|total|amount|prix|montant|payé|preis|betrag|bezahlt|kostet|precio|importe|pagado|pagué|prijs|bedrag|betaald|kost|kostte)\b` +
    String.raw`|\b(?:bestell|auftrag|rechnung|kunden|vorgang|referenz|sendung|konto|artikel|serien|versions|vertrag|buchung|mitglied|fall|ticket|bestel|factuur|klant|referentie|order|zaak|dossier|rekening|polis|lid|boeking|reserverings|contract|pakket|zending|tracking|klanten)(?:s?nummer|s?nr|s?-?nr)\b` +
    String.raw`|\b(?:bestellung|auftrag|rechnung|kundennummer|bestelling|factuur|klantnummer|ordernummer|ticketnummer)\b)[^.!?\n]{0,40}$`,
  'iu',
);
const A_PHONE =
  /\b(?:phone|mobile|cell|cellphone|call|calls|called|text|txt|whatsapp|tel|telephone|fax|landline|ring|reach|dial|telefon|telefonnummer|handy|handynummer|mobilnummer|anrufen|ruf|rufen|erreichen|téléphone|portable|numéro de téléphone|appelle|appelez|appeler|joindre|teléfono|móvil|celular|llámame|llamar|llama|telefoon|telefoonnummer|mobiel|mobiele|bel|bellen|06-nummer)\b[^.!?\n]{0,20}$/iu;

/** Abbreviations whose dot does not end the sentence ("order no. 4411…", "Rechnung Nr. 030…"). */
const ABBREVIATION_DOT = /\b(no|nr|nº|n°|núm|num|ref|réf|inv|tel|tél|acct|art|ca)\./giu;

/** A currency sign or word right before or after a number: an amount. */
const CURRENCY_BEFORE = /(?:[$€£¥]|\b(?:eur|usd|gbp|chf)\b)\s?$/iu;
const CURRENCY_AFTER = /^\s?(?:[$€£¥]|(?:eur|usd|gbp|chf|euros?|dollars?|pounds?|dólares|libras|franken|francs?)\b|,-)/iu;

/** National numbers are 8 to 13 digits in every region above; shorter or longer runs are something else. */
const NATIONAL_DIGITS = { min: 8, max: 13 };
// Spain's nine-digit numbers pass the minimum too; they are let in only with a phone word before them (see findPhones).

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
    const before = text
      .slice(Math.max(0, match.index - 60), match.index)
      .split(/[!?\n]/)
      .at(-1)!;
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
const DATE =
  /(?<![\p{N}+])(?:(?<a>\d{1,2})(?<sep>[./-]|\. )(?<b>\d{1,2})\k<sep>(?<year>(?:19|20)?\d{2})|(?<yearFirst>(?:19|20)\d{2})(?<sepFirst>[./-])(?<month>\d{1,2})\k<sepFirst>(?<day>\d{1,2}))(?!\p{N})/gu;

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

/** Dates written with spaces (`05 12 2024`, `2024 12 05`): a four-digit year and no further digit group. */
const SPACED_DATE =
  /(?<![\p{N}+] ?)(?:(?<a>\d{1,2}) (?<b>\d{1,2}) (?<year>(?:19|20)\d{2})|(?<yearFirst>(?:19|20)\d{2}) (?<month>\d{1,2}) (?<day>\d{1,2}))(?! ?\p{N})/gu;

/**
 * Other numbers that are never phone numbers and that the matcher can run into one: times
 * (`14:30`, `14:30:00`, `9h30`, `14.30 Uhr`), month and year (`11/2024`, `03-2025`), and an ISO
 * date's time part (`T14:30:00Z`).
 */
const TIME_OR_MONTH =
  /(?<!\p{N})(?:\d{1,2}:\d{2}(?::\d{2})?|\d{1,2}h\d{2}|\d{1,2}\.\d{2}(?= ?(?:uhr|u\b|h\b))|(?:0?[1-9]|1[0-2])[/-](?:19|20)\d{2})(?!\p{N})/giu;

/**
 * The text with every date, time and month's characters replaced by a letter (offsets kept), for
 * phone detection: libphonenumber takes a date such as 05.12.2024 for a national number, or runs a
 * date into the digits after it ("05.12.2024, 06"). A date is never a phone number, whatever the
 * words around it.
 */
function maskDates(text: string): string {
  let masked = text;
  const mask = (start: number, length: number) => {
    masked = masked.slice(0, start) + 'd'.repeat(length) + masked.slice(start + length);
  };
  for (const match of text.matchAll(DATE)) if (isDate(match, text)) mask(match.index!, match[0].length);
  for (const match of text.matchAll(SPACED_DATE)) {
    const { a, b, yearFirst, month, day } = match.groups!;
    const inRange = (value: string, max: number) => Number(value) >= 1 && Number(value) <= max;
    const date =
      yearFirst !== undefined ? inRange(month!, 12) && inRange(day!, 31) : inRange(a!, 31) && inRange(b!, 31) && (inRange(a!, 12) || inRange(b!, 12));
    if (date) mask(match.index!, match[0].length);
  }
  for (const match of masked.matchAll(TIME_OR_MONTH)) mask(match.index!, match[0].length);
  return masked;
}

function findPhones(original: string): PiiSpan[] {
  const text = maskDates(original);
  const spans: PiiSpan[] = [];
  const consider = (start: number, end: number, region?: CountryCode) => {
    const candidate = text.slice(start, end);
    if (/^(?:\+|00)/.test(candidate)) {
      spans.push({ kind: 'phone', start, end });
      return;
    }
    const digits = candidate.replace(/\D/g, '');
    const before = text.slice(Math.max(0, start - 60), start).replace(ABBREVIATION_DOT, '$1 ');
    // Outside North America and Indian mobiles (ten digits), a national number is written with its trunk prefix 0;
    // Spain's have none (nine digits, grouped like an amount: 612 345 678), so one counts only where the words before it say phone.
    const spanish = region === 'ES' && digits.length === 9 && /^[6-9]/.test(candidate) && A_PHONE.test(before);
    if (digits.length < NATIONAL_DIGITS.min || digits.length > NATIONAL_DIGITS.max || (!spanish && looksLikeSomethingElse(candidate))) return;
    if (!/^[01(]/.test(candidate) && digits.length !== 10 && !spanish) return;
    // Part of a longer identifier ("Q-2024-7718", "AB/55-2210") is not a phone number.
    if (/[\p{L}\p{N}][-/]$/u.test(text.slice(Math.max(0, start - 2), start)) || /^[-/]?[\p{L}\p{N}]/u.test(text.slice(end, end + 2))) return;
    // An order, ticket or account number can look like a national phone number; the words before it tell.
    if (NOT_A_PHONE.test(before) && !A_PHONE.test(before)) return;
    // An amount: a currency right before or after it.
    if (CURRENCY_BEFORE.test(before) || CURRENCY_AFTER.test(text.slice(end, end + 12))) return;
    spans.push({ kind: 'phone', start, end });
  };
  for (const region of [...PHONE_REGIONS, 'ES' as const]) {
    for (const found of findNumbers(text, { defaultCountry: region, v2: true })) consider(found.startsAt, found.endsAt, region);
  }
  // With its country code a number says it is a phone number: possible is enough, valid is not needed
  // (new ranges, and the ranges set aside for drama and documentation, are still someone's number).
  // `leniency` is a documented option of the matcher (PhoneNumberMatcher) that the type declarations leave out.
  for (const found of findNumbers(text, { v2: true, leniency: 'POSSIBLE' } as { v2: true })) {
    if (/^(?:\+|00)/.test(text.slice(found.startsAt, found.endsAt))) consider(found.startsAt, found.endsAt);
  }
  return spans;
}

/**
 * Where the PII of these kinds is, without overlaps: an email, then a card, an SSN, an address, a
 * phone, a name wins a contested span. Names and addresses are looked for whenever either is
 * asked for (a street named after someone is an address, not a name; a house number is not a phone).
 */
export function findPii(text: string, kinds: readonly PiiKind[] = SPEC_PII_KINDS): PiiSpan[] {
  const wanted = new Set(kinds);
  const people = wanted.has('name') || wanted.has('address');
  const emails = [...text.matchAll(EMAIL)].map((match): PiiSpan => ({ kind: 'email', start: match.index, end: match.index + match[0].length }));
  const addresses = people ? findAddresses(text).map((span): PiiSpan => ({ kind: 'address', ...span })) : [];
  const names = wanted.has('name') ? findNames(text).map((span): PiiSpan => ({ kind: 'name', ...span })) : [];
  // Cards, SSNs and phones are digits (libphonenumber reads any script's decimal digits): without one there is none.
  const numbers = /\p{Nd}/u.test(text) ? [...findCards(text), ...findSsns(text)] : [];
  const phones = /\p{Nd}/u.test(text) ? findPhones(text).sort((a, b) => b.end - b.start - (a.end - a.start)) : [];
  const byPriority = [...emails, ...numbers, ...addresses, ...phones, ...names];
  const kept: PiiSpan[] = [];
  for (const span of byPriority) {
    if (!kept.some((other) => span.start < other.end && other.start < span.end)) kept.push(span);
  }
  return kept.filter((span) => wanted.has(span.kind)).sort((a, b) => a.start - b.start);
}

/** The text with every PII item of these kinds (the spec's four unless told) replaced by its marker. */
export function redactPii(text: string, kinds: readonly PiiKind[] = SPEC_PII_KINDS): string {
  return replaceSpans(text, findPii(text, kinds));
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
  // A name's parts as written (case kept: "Mark" is a name where "mark" is a word).
  if (kind === 'name') return value.split(/[\s\u00a0]+/u).filter((part) => part.length >= 3 && /^\p{Lu}/u.test(part));
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

  readonly #kinds: readonly PiiKind[];

  /** `kinds`: what to redact, the spec's four unless told (redact_kinds adds names and addresses). */
  constructor(utteranceTexts: Iterable<string>, kinds: readonly PiiKind[] = SPEC_PII_KINDS) {
    this.#kinds = kinds;
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
      this.#items.push({ kind, pattern: new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(fragment)}(?![\\p{L}\\p{N}])`, kind === 'name' ? 'gu' : 'giu') });
    }
  }

  #spansOf(text: string): PiiSpan[] {
    let spans = this.#spans.get(text);
    if (!spans) {
      spans = findPii(text, this.#kinds);
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
    let out = redactPii(text, this.#kinds);
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
