import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { en } from '../../shared/i18n/catalogues/en.js';
import { CATALOGUES, translator } from '../../shared/i18n/translate.js';
import { INTERVIEW_LANGUAGES, interviewLanguageOf } from '../../shared/languages.js';

/** The message catalogues: one per interview language, each complete, each message valid ICU with the reference's arguments. */

/** Argument names a message uses, nested ones (inside plural and select branches) included. */
function argumentsOf(message: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (elements: unknown[]): void => {
    for (const element of elements as { type: number; value?: string; options?: Record<string, { value: unknown[] }> }[]) {
      if (typeof element.value === 'string' && element.type !== 0 && element.type !== 7) names.add(element.value);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst());
  return [...names].sort();
}

describe('message catalogues', () => {
  it('exist for every interview language, with exactly the reference keys', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...INTERVIEW_LANGUAGES].sort());
    for (const [language, catalogue] of Object.entries(CATALOGUES)) {
      expect(Object.keys(catalogue).sort(), language).toEqual(Object.keys(en).sort());
      for (const [key, message] of Object.entries(catalogue)) expect(message.trim(), `${language} ${key}`).not.toBe('');
    }
  });

  it('hold valid ICU messages using the same arguments as English', () => {
    for (const [language, catalogue] of Object.entries(CATALOGUES)) {
      for (const [key, message] of Object.entries(catalogue)) {
        expect(argumentsOf(message, language), `${language} ${key}`).toEqual(argumentsOf(en[key as keyof typeof en], 'en'));
      }
    }
  });

  it('are not English under another name', () => {
    for (const language of INTERVIEW_LANGUAGES.filter((code) => code !== 'en')) {
      const same = Object.entries(CATALOGUES[language]).filter(([key, message]) => message === en[key as keyof typeof en]);
      // A few words are the same in both (Interviewer, Status, Transcript, No): never more than a few percent.
      expect(same.length, `${language}: ${same.map(([key]) => key).join(', ')}`).toBeLessThanOrEqual(Math.ceil(0.05 * Object.keys(en).length));
    }
  });
});

describe('translator', () => {
  it('picks the language of a tag with a region, and English for anything else', () => {
    expect(translator('nl-BE')('page.start')).toBe('Interview starten');
    expect(translator('de')('page.progress', { current: 2, total: 4 })).toBe('Frage 2 von 4');
    expect(translator('ja')('page.start')).toBe('Start interview');
    expect(translator(null)('page.start')).toBe('Start interview');
    expect(interviewLanguageOf('es-419')).toBe('es');
    expect(interviewLanguageOf('pt-BR')).toBeNull();
  });

  it('formats selects by their arguments', () => {
    const nl = translator('nl');
    expect(nl('page.welcome.invitedBy', { organization: 'Acme', name: '', hasName: 'no' })).toBe('Acme nodigt je uit voor een interview.');
    expect(nl('page.welcome.invitedBy', { organization: 'Acme', name: 'none', hasName: 'yes' })).toBe('Hallo none, Acme nodigt je uit voor een interview.');
  });
});
