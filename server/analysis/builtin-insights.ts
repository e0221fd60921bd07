import { formatDuration } from '../../shared/format-duration.js';
import type { InsightsDraft, InsightsInput } from './analyzer.js';
import { capitalize, favouritePhrase, headOf, lemmasOf, listOf, verbatimSentences } from './key-phrases.js';
import { readSentences } from './nlp.js';
import { analyzeSentences } from './sentiment.js';
import { isStructuredQuestion } from '../../shared/schemas/scripts.js';
import { isGerman, isTopicLabel, topicPhraseOf } from './topic-phrases.js';

/**
 * Insights by extraction (no network): key quotes are the participant's most telling sentences
 * (strongly felt, about what the interview kept coming back to), action items their suggestions
 * and sharpest complaints, topics the things they talked about (key phrases grouped by their
 * head noun), and the summary states the outcome, the mood, the topics, the structured answers
 * and the key point, in the participant's own words where it quotes.
 */

/** How many of each an insight holds, whichever analyzer writes it. */
export const MAX_QUOTES = 5;
export const MAX_ACTION_ITEMS = 5;
export const MAX_TOPICS = 6;
/** A quote says something: answers to rating, yes/no and choice questions need more words than the answer itself. */
const MIN_QUOTE_WORDS = 5;
const MIN_STRUCTURED_QUOTE_WORDS = 10;

/** Sentences that ask for something: a suggestion or a request is an action item as said. */
const SUGGESTION =
  /\b(?:should|could you|can you|please|would (?:be|love|like)|'d (?:be|love|like)|i wish|if only|need(?:s)? to|have to fix|add(?:ing)? (?:a|an|the|more|support|some)|missing|lacks?|wish list|it'd be)\b/i;
/** A complaint this sharp is worth following up even when no fix was asked for. */
const PROBLEM_SCORE = -0.35;

interface Sentence {
  text: string;
  utteranceId: string;
  /** Said in answer to a rating, yes/no or multiple-choice question. */
  structured: boolean;
  startTime: number;
  order: number;
  score: number;
  words: number;
  salience: number;
}

function formatValue(value: unknown): string {
  if (value === true) return 'yes';
  if (value === false) return 'no';
  if (value === null || value === undefined) return 'no readable answer';
  return String(value);
}

export function extractBuiltinInsights(input: InsightsInput): InsightsDraft {
  const structuredQuestions = new Set(input.questions.filter(isStructuredQuestion).map((question) => question.id));
  const participant = input.utterances.filter((utterance) => utterance.speaker === 'participant' && utterance.text.trim() !== '');

  // Each utterance read once: its sentences, and the lemma of each word as it stands there.
  const readUtterances = participant.map((utterance) => {
    const sentences = readSentences(utterance.text);
    // A keyword is the utterance's own words (whichever analyzer chose it): its head is read there.
    const lemmas = lemmasOf(sentences);
    return { utterance, sentences, headOf: (keyword: string) => headOf(lemmas, keyword) };
  });

  // Topics: key phrases grouped by their head noun; the label is the phrase most often used for it.
  const topics = new Map<string, { utteranceIds: Set<string>; phrases: Map<string, number>; first: number }>();
  readUtterances.forEach(({ utterance, headOf }, index) => {
    for (const keyword of utterance.keywords) {
      // Only noun phrases name a topic (topic-phrases.ts); the keyword may be broader.
      const named = topicPhraseOf(input.language, keyword, utterance.text);
      if (named === null) continue;
      const head = headOf(named);
      const topic = topics.get(head) ?? { utteranceIds: new Set<string>(), phrases: new Map<string, number>(), first: index };
      topic.utteranceIds.add(utterance.id);
      // German nouns keep their capital letter.
      const phrase = isGerman(input.language) ? named : named.toLowerCase();
      topic.phrases.set(phrase, (topic.phrases.get(phrase) ?? 0) + 1);
      topics.set(head, topic);
    }
  });
  const rankedTopics = [...topics.values()]
    .filter((topic) =>
      isTopicLabel(
        favouritePhrase(topic.phrases),
        topic.utteranceIds.size,
        participant.map((utterance) => utterance.text),
      ),
    )
    .sort((a, b) => b.utteranceIds.size - a.utteranceIds.size || a.first - b.first)
    .slice(0, MAX_TOPICS)
    .map((topic) => {
      return { label: capitalize(favouritePhrase(topic.phrases)), utteranceIds: [...topic.utteranceIds] };
    });
  const headWeight = new Map([...topics].map(([head, topic]) => [head, Math.log2(1 + topic.utteranceIds.size)]));

  // Sentences, found verbatim in their utterance, scored for how telling they are.
  const sentences: Sentence[] = [];
  for (const { utterance, sentences: parsed, headOf } of readUtterances) {
    for (const { sentence, text } of verbatimSentences(utterance.text, parsed)) {
      const words = text.split(/\s+/).filter(Boolean).length;
      const { score } = analyzeSentences([sentence]);
      const lower = text.toLowerCase();
      const aboutTopics = utterance.keywords
        .filter((keyword) => lower.includes(keyword.toLowerCase()))
        .reduce((sum, keyword) => sum + (headWeight.get(headOf(keyword)) ?? 0), 0);
      const lengthFit = words >= 6 && words <= 40 ? 1 : 0.3;
      sentences.push({
        text,
        utteranceId: utterance.id,
        structured: utterance.questionId !== null && structuredQuestions.has(utterance.questionId),
        startTime: utterance.startTime,
        order: sentences.length,
        score,
        words,
        salience: (1.5 * Math.abs(score) + 0.6 * aboutTopics) * lengthFit,
      });
    }
  }

  const quotes: Sentence[] = [];
  const quotable = sentences.filter((candidate) => candidate.words >= (candidate.structured ? MIN_STRUCTURED_QUOTE_WORDS : MIN_QUOTE_WORDS));
  for (const sentence of quotable.sort((a, b) => b.salience - a.salience)) {
    if (quotes.length === MAX_QUOTES) break;
    if (sentence.salience <= 0 || quotes.some((quote) => quote.utteranceId === sentence.utteranceId)) continue;
    quotes.push(sentence);
  }
  quotes.sort((a, b) => a.order - b.order);

  const suggestions = sentences.filter((sentence) => sentence.words >= 4 && SUGGESTION.test(sentence.text)).map((sentence) => capitalize(sentence.text));
  const problems = sentences
    .filter((sentence) => sentence.words >= 5 && sentence.score <= PROBLEM_SCORE && !SUGGESTION.test(sentence.text))
    .sort((a, b) => a.score - b.score)
    .map((sentence) => `Look into: “${sentence.text}”`);
  const actionItems = [...new Set([...suggestions, ...problems])].slice(0, MAX_ACTION_ITEMS);

  return {
    summary: summarize(
      input,
      rankedTopics.map((topic) => topic.label.toLowerCase()),
      quotes,
    ),
    keyQuotes: quotes.map((quote) => ({ text: quote.text, utteranceId: quote.utteranceId })),
    actionItems,
    topics: rankedTopics,
    generatedBy: 'builtin',
  };
}

/** The summary's sentence on the session's overall sentiment (a sentiment override replaces it word for word). */
export function sentimentSentence(sentiment: { overall: string; score: number }): string {
  return `Overall sentiment was ${sentiment.overall} (${sentiment.score.toFixed(2)}).`;
}

function summarize(input: InsightsInput, topics: string[], quotes: Sentence[]): string {
  const { session } = input;
  const answered = `${session.questionsAnswered} of ${session.totalQuestions} questions`;
  const parts: string[] = [];
  if (session.completionStatus === 'completed')
    parts.push(`The participant completed the interview in ${formatDuration(session.durationSeconds)}, answering ${answered}.`);
  else if (session.completionStatus === 'timed_out')
    parts.push(`The interview reached its time limit after ${formatDuration(session.durationSeconds)}, with ${answered} answered.`);
  else parts.push(`The participant left the interview after ${formatDuration(session.durationSeconds)}, having answered ${answered}.`);
  if (session.sentiment) parts.push(sentimentSentence(session.sentiment));
  if (topics.length > 0) parts.push(`They talked most about ${listOf(topics.slice(0, 3))}.`);
  const questionText = new Map(input.questions.map((question) => [question.id, question.text]));
  const answers = input.answers.filter((answer) => questionText.has(answer.questionId));
  if (answers.length > 0) parts.push(`Answers: ${answers.map((answer) => `${questionText.get(answer.questionId)} ${formatValue(answer.value)}`).join('; ')}.`);
  const strongest = [...quotes].sort((a, b) => b.salience - a.salience)[0];
  if (strongest) parts.push(`Key point: “${strongest.text}”`);
  return parts.join(' ');
}
