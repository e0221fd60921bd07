import { interviewLanguageOf } from '../../../shared/languages.js';
import { ENGLISH_PROBES } from './en.js';
import { DUTCH_PROBES } from './nl.js';
import { GERMAN_PROBES } from './de.js';
import { FRENCH_PROBES } from './fr.js';
import { SPANISH_PROBES } from './es.js';
import type { ProbeLanguage } from './language.js';

const LANGUAGES: Record<string, ProbeLanguage> = { en: ENGLISH_PROBES, nl: DUTCH_PROBES, de: GERMAN_PROBES, fr: FRENCH_PROBES, es: SPANISH_PROBES };

/** The prober's language data; a language without its own speaks English (as the phrases do). */
export function probeLanguageFor(language: string): ProbeLanguage {
  return LANGUAGES[interviewLanguageOf(language) ?? 'en'] ?? ENGLISH_PROBES;
}
