import { assessOpenAnswer } from './answer-parsing.js';
import type { Interviewer, InterviewerDecision, InterviewerRequest } from './interviewer.js';
import { phrasesFor } from './phrases.js';

/**
 * The interviewer that needs no network: it follows up on an open answer that is empty, too
 * short or non-committal (`assessOpenAnswer`), with the question's `followUp.prompt` or a
 * neutral phrase; on a structured question only where the script gives a prompt and the answer
 * was just the value ("4" → "What made you choose that?"). Otherwise it moves on.
 */
export class BuiltinInterviewer implements Interviewer {
  readonly name = 'builtin';
  readonly usesConversation = false;

  async decide(request: InterviewerRequest): Promise<InterviewerDecision> {
    const { current: question, answer, followUpsAsked, followUpLimit, language } = request;
    if (answer === null || followUpsAsked >= followUpLimit) return { action: 'next' };
    const assessment = assessOpenAnswer(answer, language);
    if (!assessment.vague) return { action: 'next' };
    const prompt = question.followUp?.prompt?.trim();
    if (question.type !== 'open') {
      return prompt && followUpsAsked === 0
        ? { action: 'follow_up', text: prompt, probe: { reason: 'script_prompt', pickedUp: null, source: 'script', probeNumber: 1 } }
        : { action: 'next' };
    }
    // The script's prompt once; after that the interviewer's own words, so nothing is asked twice.
    const fromScript = Boolean(prompt) && followUpsAsked === 0;
    const text = fromScript ? prompt! : phrasesFor(language).followUp(assessment.reason, followUpsAsked);
    return {
      action: 'follow_up',
      text,
      probe: { reason: fromScript ? 'script_prompt' : 'vague', pickedUp: null, source: fromScript ? 'script' : 'builtin', probeNumber: followUpsAsked + 1 },
    };
  }
}
