import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BuiltinAnalyzer } from '../../server/analysis/builtin-analyzer.js';
import { summarizeSessionSet } from '../../server/analysis/session-set-summary.js';
import { topicPhraseOf } from '../../server/analysis/topic-phrases.js';

/**
 * Topics (insights) and themes (summaries) are noun phrases a researcher would name, in every
 * interview language: never a function word ("La"), an adjective ("Lenta"), a verb phrase
 * ("Wochen gedauert") or a vague noun ("Reasons"); a single word only when it recurs.
 */

const stopwords = createRequire(import.meta.url)('stopwords-iso/stopwords-iso.json') as Record<string, string[]>;
const ARTICLES = new Set(['the', 'a', 'an', 'la', 'le', 'les', 'el', 'los', 'las', 'de', 'het', 'een', 'der', 'die', 'das', 'un', 'une', 'una']);

const INTERVIEWS: Record<string, string[]> = {
  en: [
    'Reasons why I left: the pricing was too high.',
    'Onboarding took two weeks. The onboarding emails had broken links.',
    'La verdad es que the reporting dashboard is slow.',
    'Reasons? Mostly the price. The reporting dashboard is great though.',
    'Support was quick but the mobile app crashes on my phone.',
  ],
  es: [
    'La aplicación es lenta y la verdad es que el precio es alto.',
    'Los informes del panel son muy útiles para el equipo de ventas.',
    'La atención al cliente tardó dos días en responder.',
    'El precio es demasiado alto para una empresa pequeña.',
    'Me gustaría exportar los informes a PDF y la aplicación se cierra sola.',
  ],
  fr: [
    'La facturation est compliquée et le support répond lentement.',
    "Le tableau de bord est clair, mais l'export des rapports échoue.",
    'Les raisons sont simples : le prix et la lenteur.',
    'La synchronisation mobile plante souvent, surtout la facturation.',
    'Le prix est trop élevé pour une petite équipe.',
  ],
  de: [
    'Die Einrichtung hat zwei Wochen gedauert.',
    'Das Dashboard ist übersichtlich, aber der Export der Berichte schlägt fehl.',
    'Gründe gibt es viele: der Preis und die langsame App.',
    'Der Kundensupport hat schnell geantwortet, die langsame App nervt.',
    'Der Preis ist für ein kleines Team zu hoch.',
  ],
  nl: [
    'De installatie duurde twee weken.',
    'Het dashboard is overzichtelijk, maar het exporteren van rapporten mislukt.',
    'Redenen genoeg: de prijs en de trage app.',
    'De klantenservice reageerde snel, maar de trage app blijft irritant.',
    'De prijs is te hoog voor een klein team.',
  ],
};

const analyzer = new BuiltinAnalyzer();

async function topicsOf(language: string, answers: string[]) {
  const utterances = answers.map((text, i) => ({ id: `u${i}`, speaker: 'participant' as const, text, questionId: 'q' }));
  const analysis = await analyzer.analyzeTranscript({ language, utterances });
  const analyzed = utterances.map((utterance, i) => ({ ...utterance, ...analysis.utterances[i]!, startTime: i }));
  const insights = await analyzer.extractInsights({
    language,
    questions: [{ id: 'q', text: 'Tell me about it.', type: 'open' }],
    utterances: analyzed,
    answers: [],
    session: { durationSeconds: 300, questionsAnswered: 1, totalQuestions: 1, completionStatus: 'completed', sentiment: null },
  });
  return { topics: insights.topics, analyzed };
}

/** How often a word is said in the answers. */
function mentions(word: string, answers: string[]): number {
  return answers.reduce((count, text) => count + (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((candidate) => candidate === word).length, 0);
}

/** What no topic may be, whatever the language. */
function expectResearcherTopics(language: string, topics: { label: string; utteranceIds: string[] }[], answers: string[]) {
  const functionWords = new Set(['en', 'nl', 'de', 'fr', 'es'].flatMap((code) => stopwords[code]!));
  for (const topic of topics) {
    const words = topic.label.toLowerCase().split(/\s+/);
    expect(ARTICLES.has(words[0]!), `${language}: "${topic.label}" opens with an article`).toBe(false);
    expect(functionWords.has(words.at(-1)!), `${language}: "${topic.label}" ends on a function word`).toBe(false);
    if (words.length === 1) {
      expect(functionWords.has(words[0]!), `${language}: "${topic.label}" is a function word`).toBe(false);
      expect(Math.max(topic.utteranceIds.length, mentions(words[0]!, answers)), `${language}: the single word "${topic.label}" does not recur`).toBeGreaterThan(
        1,
      );
    }
  }
}

describe('insight topics are noun phrases', () => {
  it.each(Object.keys(INTERVIEWS))('%s: no function word, no adjective or verb phrase, no vague or once-said single word', async (language) => {
    const { topics } = await topicsOf(language, INTERVIEWS[language]!);
    expect(topics.length).toBeGreaterThan(0);
    expectResearcherTopics(language, topics, INTERVIEWS[language]!);
  });

  it('names what a researcher would, in each language', async () => {
    const labels = async (language: string) => (await topicsOf(language, INTERVIEWS[language]!)).topics.map((topic) => topic.label);
    const en = await labels('en');
    expect(en).toContain('Reporting dashboard');
    expect(en).not.toContain('Reasons');
    expect(en.some((label) => /^la\b/i.test(label))).toBe(false);
    expect(await labels('es')).toEqual(expect.arrayContaining(['Precio', 'Informes']));
    expect(await labels('es')).not.toEqual(expect.arrayContaining(['Alto']));
    expect(await labels('fr')).toEqual(expect.arrayContaining(['Prix', 'Facturation']));
    expect(await labels('de')).toEqual(expect.arrayContaining(['Preis', 'Langsame App']));
    expect((await labels('de')).some((label) => /gedauert|schlägt/.test(label))).toBe(false);
    expect(await labels('nl')).toEqual(expect.arrayContaining(['Prijs', 'Trage app']));
  });

  it('topicPhraseOf: a keyword names a topic only as a noun phrase', () => {
    expect(topicPhraseOf('en', 'La verdad es que', 'La verdad es que the dashboard is slow.')).toBeNull();
    expect(topicPhraseOf('en', 'Reasons', 'Reasons why I left.')).toBeNull();
    expect(topicPhraseOf('en', 'reporting dashboard', 'The reporting dashboard is slow.')).toBe('reporting dashboard');
    expect(topicPhraseOf('es', 'alto', 'el precio es alto')).toBeNull();
    expect(topicPhraseOf('es', 'empresa pequeña', 'para una empresa pequeña')).toBe('empresa');
    expect(topicPhraseOf('fr', 'équipe support', "L'équipe support a répondu")).toBe('équipe');
    expect(topicPhraseOf('fr', 'petite équipe', 'pour une petite équipe')).toBe('petite équipe');
    expect(topicPhraseOf('de', 'Berichte schlägt fehl', 'der Export der Berichte schlägt fehl')).toBe('Berichte');
    expect(topicPhraseOf('de', 'übersichtlich', 'Das Dashboard ist übersichtlich')).toBeNull();
    expect(topicPhraseOf('nl', 'installatie duurde', 'De installatie duurde twee weken.')).toBe('installatie');
    expect(topicPhraseOf('nl', 'weken', 'twee weken')).toBeNull();
  });
});

describe('summary themes across interviews are noun phrases', () => {
  it.each(Object.keys(INTERVIEWS))('%s', async (language) => {
    // Each answer its own session: a theme is what several participants raised.
    const { analyzed } = await topicsOf(language, INTERVIEWS[language]!);
    const summary = await summarizeSessionSet(
      analyzed.map((utterance, i) => ({
        id: utterance.id,
        sessionId: `s${i}`,
        questionId: 'q',
        text: utterance.text,
        keywords: utterance.keywords,
        sentiment: utterance.sentiment,
        language,
      })),
    );
    expect(summary.themes.length).toBeGreaterThan(0);
    expectResearcherTopics(
      language,
      summary.themes.map((theme) => ({
        label: theme.title,
        utteranceIds: theme.quotes.map((quote) => quote.utteranceId).concat(theme.sessionCount > 1 ? ['', ''] : []),
      })),
      INTERVIEWS[language]!,
    );
  });
});
