import type { TQuestion } from '../../shared/schemas/scripts.js';
import type { TAnswerValue } from '../../shared/schemas/sessions.js';
import type { VaguenessReason } from './answer-parsing/open-answer.js';
import { translator } from '../../shared/i18n/translate.js';
import { interviewLanguageOf } from '../../shared/languages.js';

/**
 * What the built-in interviewer and the engine say in their own words: follow-ups without a
 * script prompt, the re-ask of an answer that could not be read, the confirmation of an unsure
 * one and its brief re-ask, the closing. In the interview's
 * language, from its catalogue; a language without one speaks English.
 */
export interface InterviewerPhrases {
  followUp(reason: VaguenessReason | null, followUpsAsked: number): string;
  reAsk(question: Pick<TQuestion, 'type' | 'text' | 'options' | 'scale'>): string;
  /** One short turn reading back an unsure answer: "So that's a 4 — is that right?" */
  /** `value` null on a multiple-choice question: the answer was none of the options ("So none of these — is that right?"). */
  confirm(question: Pick<TQuestion, 'type'>, value: TAnswerValue): string;
  /** After a confirmation was turned down: the question again, in a few words ("Then what would you give it, from 1 to 5?"). */
  askAgainBriefly(question: Pick<TQuestion, 'type' | 'text' | 'options' | 'scale'>): string;
  closing: string;
}

/** The phrases of one language, from its catalogue (shared/i18n); a language without one speaks English. */
function phrasesOf(language: string): InterviewerPhrases {
  const t = translator(language);
  return {
    followUp(reason, followUpsAsked) {
      // Never the same words twice on one question.
      if (followUpsAsked > 0) return t('interviewer.followUp.anythingElse');
      if (reason === 'non_committal') return t('interviewer.followUp.specific');
      return t('interviewer.followUp.more');
    },
    reAsk(question) {
      if (question.type === 'rating') {
        const scale = question.scale ?? { min: 1, max: 5 };
        return t('interviewer.reAsk.rating', { min: scale.min, max: scale.max, question: question.text });
      }
      if (question.type === 'yes_no') return t('interviewer.reAsk.yesNo', { question: question.text });
      if (question.type === 'multiple_choice') {
        const options = new Intl.ListFormat(interviewLanguageOf(language) ?? 'en', { type: 'disjunction' }).format(question.options ?? []);
        return t('interviewer.reAsk.choice', { options });
      }
      return t('interviewer.reAsk.open', { question: question.text });
    },
    confirm(question, value) {
      if (question.type === 'yes_no' || typeof value === 'boolean') return t(value === false ? 'interviewer.confirm.no' : 'interviewer.confirm.yes');
      if (question.type === 'rating') return t('interviewer.confirm.rating', { value: String(value) });
      if (value === null) return t('interviewer.confirm.none');
      return t('interviewer.confirm.choice', { option: String(value) });
    },
    askAgainBriefly(question) {
      if (question.type === 'rating') {
        const scale = question.scale ?? { min: 1, max: 5 };
        return t('interviewer.askAgain.rating', { min: scale.min, max: scale.max });
      }
      if (question.type === 'yes_no') return t('interviewer.askAgain.yesNo');
      if (question.type === 'multiple_choice') {
        const options = new Intl.ListFormat(interviewLanguageOf(language) ?? 'en', { type: 'disjunction' }).format(question.options ?? []);
        return t('interviewer.askAgain.choice', { options });
      }
      return t('interviewer.reAsk.open', { question: question.text });
    },
    closing: t('interviewer.closing'),
  };
}

const PHRASES = new Map<string, InterviewerPhrases>();

export function phrasesFor(language: string): InterviewerPhrases {
  const key = interviewLanguageOf(language) ?? 'en';
  let phrases = PHRASES.get(key);
  if (!phrases) {
    phrases = phrasesOf(key);
    PHRASES.set(key, phrases);
  }
  return phrases;
}
