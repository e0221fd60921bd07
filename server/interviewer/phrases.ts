import type { TQuestion } from '../../shared/schemas/scripts.js';
import type { VaguenessReason } from './answer-parsing/open-answer.js';

/**
 * What the built-in interviewer and the engine say in their own words: follow-ups without a
 * script prompt, the re-ask of an answer that could not be read, the closing. One table per
 * language; a language without one speaks English.
 */
export interface InterviewerPhrases {
  followUp(reason: VaguenessReason | null, followUpsAsked: number): string;
  reAsk(question: Pick<TQuestion, 'type' | 'text' | 'options' | 'scale'>): string;
  closing: string;
}

const ENGLISH: InterviewerPhrases = {
  followUp(reason, followUpsAsked) {
    // Never the same words twice on one question.
    if (followUpsAsked > 0) return 'Thank you. Is there anything else you would like to add about that?';
    if (reason === 'non_committal') return 'That is fine. Is there anything specific that comes to mind, even something small?';
    return 'Could you tell me a bit more about that?';
  },
  reAsk(question) {
    if (question.type === 'rating') {
      const scale = question.scale ?? { min: 1, max: 5 };
      return `Sorry, I did not catch a number. On a scale from ${scale.min} to ${scale.max}: ${question.text}`;
    }
    if (question.type === 'yes_no') return `Sorry, was that a yes or a no? ${question.text}`;
    if (question.type === 'multiple_choice') {
      return `Sorry, I did not catch which one you mean. Please choose one of: ${(question.options ?? []).join(', ')}.`;
    }
    return `Sorry, could you answer that again? ${question.text}`;
  },
  closing: 'Thank you, that was the last question. Your answers have been recorded.',
};

const PHRASES: Record<string, InterviewerPhrases> = { en: ENGLISH };

export function phrasesFor(language: string): InterviewerPhrases {
  return PHRASES[language.split('-')[0]!.toLowerCase()] ?? ENGLISH;
}
