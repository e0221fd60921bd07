import { DEFAULT_RATING_SCALE, type TQuestion, type TQuestionInput } from '../../../shared/schemas/scripts.js';

/**
 * Applies question defaults: `required` true, rating scale 1 to 5, and `order` for questions
 * without one, continuing after the highest explicit order in array order. The result is
 * sorted by order, which is how interviews ask them.
 */
export function normalizeQuestions(questions: readonly TQuestionInput[]): TQuestion[] {
  let nextOrder = Math.max(0, ...questions.map((question) => question.order ?? 0));
  const normalized = questions.map((question): TQuestion => {
    const order = question.order ?? ++nextOrder;
    return {
      id: question.id,
      text: question.text,
      type: question.type,
      required: question.required ?? true,
      order,
      ...(question.followUp !== undefined ? { followUp: question.followUp } : {}),
      ...(question.maxDuration !== undefined ? { maxDuration: question.maxDuration } : {}),
      ...(question.type === 'multiple_choice' ? { options: question.options ?? [] } : {}),
      ...(question.type === 'rating' ? { scale: question.scale ?? { ...DEFAULT_RATING_SCALE } } : {}),
    };
  });
  return normalized.sort((a, b) => a.order - b.order);
}
