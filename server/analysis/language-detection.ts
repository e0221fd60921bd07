import { franc } from 'franc-min';
import { interviewLanguageOf } from '../../shared/languages.js';

/** The languages answers are told apart among (ISO 639-3 → the tag the API reports): the interview languages and their neighbours. */
const CANDIDATES: Record<string, string> = {
  eng: 'en',
  nld: 'nl',
  deu: 'de',
  fra: 'fr',
  spa: 'es',
  ita: 'it',
  por: 'pt',
  pol: 'pl',
  tur: 'tr',
  swe: 'sv',
  dan: 'da',
  nob: 'no',
};
const ONLY = Object.keys(CANDIDATES);

/** Shorter answers do not say enough to tell languages apart reliably ("ok", "ja", "no sé"). */
const MIN_CHARACTERS = 30;
const MIN_WORDS = 5;

/**
 * The language a participant's answer is written in, when it is confidently another than the
 * interview's: "de" for a German answer in a Dutch interview; null when it is the interview's,
 * too short to tell, or undetermined. franc (trigram profiles), restricted to likely languages.
 */
export function otherLanguageOf(text: string, interviewLanguage: string): string | null {
  const trimmed = text.trim();
  if (trimmed.length < MIN_CHARACTERS || trimmed.split(/\s+/).length < MIN_WORDS) return null;
  const detected = CANDIDATES[franc(trimmed, { only: ONLY, minLength: MIN_CHARACTERS })];
  if (!detected) return null;
  const expected = interviewLanguageOf(interviewLanguage) ?? interviewLanguage.split('-')[0]!.toLowerCase();
  return detected === expected ? null : detected;
}
