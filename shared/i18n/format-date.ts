import { interviewLanguageOf } from '../languages.js';

const formatters = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/**
 * "23 November 2026, 14:05 UTC" (`month: 'long'`, emails and the invite page) or "25 Nov 2026,
 * 14:06 UTC" (`'short'`, the PDF report), in the interview language's words and order ("25. Nov.
 * 2026" in German), a 24-hour time, always UTC: never the server's locale or time zone. English
 * is British English (day before month); a language without a catalogue gets English.
 */
export function formatUtcDateTime(date: Date, language: string, month: 'long' | 'short' = 'long'): string {
  const resolved = interviewLanguageOf(language) ?? 'en';
  const locale = resolved === 'en' ? 'en-GB' : resolved;
  const key = `${locale} ${month}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = {
      day: new Intl.DateTimeFormat(locale, { day: 'numeric', month, year: 'numeric', timeZone: 'UTC' }),
      time: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }),
    };
    formatters.set(key, formatter);
  }
  return `${formatter.day.format(date)}, ${formatter.time.format(date)} UTC`;
}
