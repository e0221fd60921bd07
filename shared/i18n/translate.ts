import { IntlMessageFormat } from 'intl-messageformat';
import { interviewLanguageOf, type TInterviewLanguage } from '../languages.js';
import { de } from './catalogues/de.js';
import { type Catalogue, en, type MessageKey } from './catalogues/en.js';
import { es } from './catalogues/es.js';
import { fr } from './catalogues/fr.js';
import { nl } from './catalogues/nl.js';

export type { MessageKey } from './catalogues/en.js';

/** One catalogue per interview language. */
export const CATALOGUES: Record<TInterviewLanguage, Catalogue> = { en, nl, de, fr, es };

export type MessageValues = Record<string, string | number>;
export type Translate = (key: MessageKey, values?: MessageValues) => string;

/** Whether a key built at run time (`refusal.${code}`, `report.status.${status}`) names a message. */
export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(en, key);
}

const compiled = new Map<string, IntlMessageFormat>();

/**
 * The messages of one interview language, formatted with ICU MessageFormat (plurals, selects
 * and number formats by the language's rules); a tag such as `nl-BE` gets `nl`, anything not
 * supported English. Each message is parsed once per process (or page).
 */
export function translator(language: string | null | undefined): Translate {
  const resolved = interviewLanguageOf(language) ?? 'en';
  const catalogue = CATALOGUES[resolved];
  return (key, values) => {
    const cacheKey = `${resolved}\u0000${key}`;
    let format = compiled.get(cacheKey);
    if (!format) {
      format = new IntlMessageFormat(catalogue[key], resolved);
      compiled.set(cacheKey, format);
    }
    return String(format.format(values));
  };
}
