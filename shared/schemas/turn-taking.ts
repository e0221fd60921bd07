import { z } from 'zod';

/**
 * Voice turn-taking (issue "Voice-first interviews"): how the interview page decides, by itself,
 * that the participant has finished an answer, and what it reports back so the researcher sees
 * how long the AI took to answer each time and whether it ever cut the participant off.
 *
 * Defined once here: the campaign settings validate `settings.turnTaking` with it, the interview
 * page and the Node measurement run the same end-of-turn rule with it (`shared/voice/`).
 */

/** Limits of each wait: below them a breath ends a turn, above them the participant waits for the AI. */
export const TURN_TAKING_LIMITS = {
  endOfTurnMs: { min: 300, max: 5000 },
  pauseMs: { min: 500, max: 10_000 },
} as const;

export const ZTurnTaking = z
  .strictObject({
    endOfTurnMs: z
      .number()
      .int()
      .min(TURN_TAKING_LIMITS.endOfTurnMs.min)
      .max(TURN_TAKING_LIMITS.endOfTurnMs.max)
      .optional()
      .meta({ description: 'Silence (ms) after speech that sounds finished before the turn ends.' }),
    pauseMs: z
      .number()
      .int()
      .min(TURN_TAKING_LIMITS.pauseMs.min)
      .max(TURN_TAKING_LIMITS.pauseMs.max)
      .optional()
      .meta({ description: 'Silence (ms) allowed inside an answer: after speech that sounds unfinished, the turn stays open this long.' }),
    bargeIn: z.boolean().optional().meta({ description: "Speech while the AI is speaking stops the AI's audio. Default true." }),
  })
  .meta({ id: 'TurnTaking' });
export type TTurnTaking = z.infer<typeof ZTurnTaking>;
export type TResolvedTurnTaking = Required<TTurnTaking>;

/**
 * The defaults when a campaign sets none. The waits are the end-of-turn rule's measured operating
 * point (docs/interviews.md, "Voice interviews"); change them only with the labelled set's figures. Chosen on
 * the set's dev split to cut off at most 5% of answers: 1200 ms after a fall (a shorter wait ends
 * answers whose first sentence sounds complete: 700 ms cut off a fifth of them), 1800 ms after
 * anything else (the longest pauses inside answers are 1.5 s).
 */
export const DEFAULT_TURN_TAKING: TResolvedTurnTaking = { endOfTurnMs: 1200, pauseMs: 1800, bargeIn: true };

export function resolveTurnTaking(settings: TTurnTaking | null | undefined): TResolvedTurnTaking {
  return { ...DEFAULT_TURN_TAKING, ...Object.fromEntries(Object.entries(settings ?? {}).filter(([, value]) => value !== undefined)) };
}

// Defined beside the frame types: the interview page reads it without bundling zod.
export { CUT_OFF_WINDOW_MS } from '../voice/types.js';

const ZClientTime = z.number().int().min(0).max(8_640_000_000_000).meta({ description: "Epoch milliseconds on the participant's clock." });

/**
 * What the page reports with an answer given by voice (text answers: `voiceTiming`, audio answers:
 * the multipart field `voiceTiming` as JSON). Times are on the participant's own clock: latency is
 * a difference of two of them, so a skewed clock does not matter.
 */
export const ZVoiceTiming = z
  .strictObject({
    speechEndedAt: ZClientTime.optional().meta({ description: "When the participant's last speech of this answer ended." }),
    endOfTurnAt: ZClientTime.optional().meta({ description: 'When the page decided the answer was over (or the participant sent it).' }),
    aiAudioStartedAt: ZClientTime.nullable()
      .optional()
      .meta({ description: 'When the audio of the AI turn this answers started playing; null: it never played (muted, typing, no audio).' }),
    bargeIn: z.boolean().optional().meta({ description: 'The participant spoke over the AI turn this answers and its audio was stopped.' }),
    previousCutOff: z.boolean().optional().meta({ description: 'The participant went on speaking within 2 s after the page ended their previous answer.' }),
    manual: z.boolean().optional().meta({ description: 'The participant ended this answer themselves (button, typing) rather than the end-of-turn rule.' }),
  })
  .meta({ id: 'VoiceTiming' });
export type TVoiceTiming = z.infer<typeof ZVoiceTiming>;

/** The session record's summary of its voice turns. */
export const ZTurnTakingSummary = z
  .object({
    turns: z.number().int().meta({ description: 'AI turns with a measured latency.' }),
    latencyP50Ms: z.number().int().nullable().meta({ description: "End of the participant's speech to the AI's audio starting, median." }),
    latencyP95Ms: z.number().int().nullable(),
    cutOffs: z.number().int().meta({ description: 'Answers the page ended while the participant had not finished (they went on within 2 s).' }),
    bargeIns: z.number().int().meta({ description: 'AI turns the participant spoke over.' }),
  })
  .meta({ id: 'TurnTakingSummary' });
export type TTurnTakingSummary = z.infer<typeof ZTurnTakingSummary>;

/**
 * `settings.turnTaking` in campaign and script updates: a merge patch (RFC 7386) of the stored
 * object, like the rest of `settings`: given keys replace, `null` removes a key (its default again).
 */
export const ZTurnTakingPatch = z.strictObject({
  endOfTurnMs: ZTurnTaking.shape.endOfTurnMs.unwrap().nullable().optional(),
  pauseMs: ZTurnTaking.shape.pauseMs.unwrap().nullable().optional(),
  bargeIn: z.boolean().nullable().optional(),
});
