import type { TFollowUpDepth } from '../../shared/schemas/probes.js';
import { assessOpenAnswer } from './answer-parsing.js';
import type { Interviewer, InterviewerDecision, InterviewerRequest } from './interviewer.js';
import { planProbe } from './probing/plan-probe.js';

/** Probes the interviewer itself allows on one question per depth; the engine caps them with `followUpLimit` as well. */
const PROBES_PER_DEPTH: Record<TFollowUpDepth, number> = { low: 1, medium: 1, high: 2, deep: 3 };

/**
 * The interviewer that needs no network. On an open question it reads the answer for what
 * deserves a question (probing/plan-probe.ts: a problem, an event, a workaround, a feeling, a
 * comparison, a figure) and asks about it in the participant's words; a vague answer gets the
 * script's prompt where it fits, else a neutral phrase. How far it digs follows the question's
 * depth: `low` only for a vague answer or one naming a problem or a feeling, `medium` once,
 * `high` twice, `deep` three times; without a depth, up to `followUpLimit`. On a structured
 * question it follows up only where the script gives a prompt and the answer was just the value
 * ("4" → "What made you choose that?"). Otherwise it moves on.
 */
export class BuiltinInterviewer implements Interviewer {
  readonly name = 'builtin';
  readonly usesConversation = false;

  async decide(request: InterviewerRequest): Promise<InterviewerDecision> {
    const { current: question, answer, followUpsAsked, followUpLimit, language, depth } = request;
    if (answer === null || followUpsAsked >= followUpLimit) return { action: 'next' };
    if (question.type !== 'open') {
      const prompt = question.followUp?.prompt?.trim();
      return prompt && followUpsAsked === 0 && assessOpenAnswer(answer, language).vague
        ? { action: 'follow_up', text: prompt, probe: { reason: 'script_prompt', pickedUp: null, source: 'script', probeNumber: 1 } }
        : { action: 'next' };
    }
    if (depth !== null && followUpsAsked >= PROBES_PER_DEPTH[depth]) return { action: 'next' };
    // A further probe needs what was already asked (the question and each probe): without it, it could repeat one.
    if (followUpsAsked > 0 && request.askedOnQuestion.length <= followUpsAsked) return { action: 'next' };
    const plan = planProbe({
      answer,
      language,
      question,
      probesAsked: followUpsAsked,
      askedOnQuestion: request.askedOnQuestion,
      pickedUpBefore: request.pickedUpBefore,
    });
    if (!plan) return { action: 'next' };
    if (depth === 'low' && !this.leavesSomethingOpen(plan.ledger.reason, answer, language)) return { action: 'next' };
    return { action: 'follow_up', text: plan.text, probe: plan.ledger };
  }

  /** At depth `low` a probe is asked only where leaving it out would lose something: a vague answer, a problem, a feeling. */
  private leavesSomethingOpen(reason: string, answer: string, language: string): boolean {
    if (reason === 'vague' || reason === 'problem' || reason === 'feeling') return true;
    return reason === 'script_prompt' && assessOpenAnswer(answer, language).vague;
  }
}
