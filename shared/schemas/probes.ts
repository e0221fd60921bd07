import { z } from 'zod';

/**
 * Why the interviewer asked a follow-up ("probe"), recorded on the AI utterance so answers stay
 * comparable across participants: a researcher sees which probes were the script's, which the
 * interviewer found in the answer, and the participant's words each one picked up.
 *
 * - `problem`, `event`, `workaround`, `feeling`, `comparison`, `number`: something the answer
 *   said that deserves a question (a difficulty, something that happened, a way around it, a
 *   strong feeling, a comparison with something else, a figure);
 * - `vague`: the answer was empty, too short or non-committal, so the probe asks for more;
 * - `script_prompt`: the question's `followUp.prompt`, asked because it fits the answer.
 */
export const PROBE_REASONS = ['problem', 'event', 'workaround', 'feeling', 'comparison', 'number', 'vague', 'script_prompt'] as const;
export type TProbeReason = (typeof PROBE_REASONS)[number];

/** Who worded the probe: the built-in interviewer, the script's prompt, or the LLM. */
export const PROBE_SOURCES = ['builtin', 'script', 'llm'] as const;
export type TProbeSource = (typeof PROBE_SOURCES)[number];

/** How far the interviewer digs on one question: `low` 0–1 probe (only when the answer leaves something open), `medium` 1, `high` 2, `deep` 3. */
export const FOLLOW_UP_DEPTHS = ['low', 'medium', 'high', 'deep'] as const;
export type TFollowUpDepth = (typeof FOLLOW_UP_DEPTHS)[number];

export const ZProbeLedger = z
  .object({
    reason: z.enum(PROBE_REASONS),
    /** The participant's words the probe picked up, as they said them; null for a `vague` or script probe that quotes nothing. */
    pickedUp: z.string().nullable(),
    source: z.enum(PROBE_SOURCES),
    /** 1 for the first probe on the question, 2 for the second… */
    probeNumber: z.number().int().min(1),
  })
  .meta({ id: 'ProbeLedger', description: "Why a follow-up was asked: its reason, the participant's words it picked up, and who worded it." });
export type TProbeLedger = z.infer<typeof ZProbeLedger>;
