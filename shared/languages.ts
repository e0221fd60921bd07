/**
 * The languages an interview can be held in: the participant sees, hears and is understood in
 * each of them (page, interviewer phrases, answer parsing). A tag with a region or script
 * (`nl-BE`, `es-419`) is held in its language (`nl`, `es`); any other language is refused where
 * it is set, never found out mid-interview.
 */
export const INTERVIEW_LANGUAGES = ['en', 'nl', 'de', 'fr', 'es'] as const;
export type TInterviewLanguage = (typeof INTERVIEW_LANGUAGES)[number];

/** The interview language a BCP 47 tag is held in, or null when it is not one of them. */
export function interviewLanguageOf(tag: string | null | undefined): TInterviewLanguage | null {
  const primary = (tag ?? '').split('-')[0]!.toLowerCase();
  return (INTERVIEW_LANGUAGES as readonly string[]).includes(primary) ? (primary as TInterviewLanguage) : null;
}
