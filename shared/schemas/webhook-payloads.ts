import { z } from 'zod';
import { ZTimestamp } from './common.js';
import { COMPLETION_STATUSES, ZFeedback } from './sessions.js';

/**
 * The webhook contract: every body a delivery sends, per event type and payload design, exactly
 * as `server/domains/webhooks/event-payloads.ts` builds it (it builds these types, so the two
 * cannot drift) and as the OpenAPI document's `webhooks` publishes it. Payloads grow: receivers
 * must accept fields they do not know, and the published schemas do not forbid them. The field
 * names are the spec's (snake_case, Design A flat, Design B an envelope).
 */

const ZSignedLink = z.string().meta({ description: 'A signed link that works without an API key for 24 hours, signed afresh at each attempt.' });

/** Design A's fields common to every event. */
const designACommon = {
  project_id: z.string().meta({ description: "The campaign's project, else the script's; empty when neither has one." }),
  script_id: z.string(),
  campaign_id: z.string(),
  campaign_name: z.string(),
  session_id: z.string(),
  invitee_email: z.string().meta({ description: 'Empty for share-link participants.' }),
  locale: z.string(),
  timestamp: ZTimestamp.meta({ description: 'When the event was published (for `interview.completed`, once its transcript and insights exist).' }),
};

const designACompleted = {
  ...designACommon,
  transcript_url: ZSignedLink,
  audio_url: ZSignedLink.optional().meta({ description: "The merged recording once it exists, else the latest answer's; absent for a session without audio." }),
  duration_ms: z.number().int(),
  total_minutes: z.number().int(),
  free_minutes_applied: z.number().int(),
  billable_minutes: z.number().int(),
  amount_credits: z.number().int(),
  billing_plan_id: z.string().nullable(),
  pricing_snapshot: z.object({ price_per_minute_credits: z.number() }),
};

export const ZWebhookInterviewCompletedA = z
  .object({ event: z.literal('interview.completed'), ...designACompleted })
  .meta({ id: 'WebhookInterviewCompletedA', description: '`interview.completed`, Design A: a flat object.' });

export const ZWebhookTestEventA = z.object({ event: z.literal('test.webhook'), ...designACompleted }).meta({
  id: 'WebhookTestEventA',
  description: '`test.webhook`, Design A: the shape of an `interview.completed`, with anonymized sample data and links that open nothing.',
});

export const ZWebhookFeedbackSubmittedA = z
  .object({ event: z.literal('session.feedback_submitted'), ...designACommon, feedback: ZFeedback })
  .meta({ id: 'WebhookFeedbackSubmittedA', description: '`session.feedback_submitted`, Design A: a flat object.' });

export const ZCompletedDataB = z
  .object({
    session_id: z.string(),
    campaign_id: z.string(),
    script_id: z.string(),
    participant: z.object({ email: z.string().nullable(), name: z.string().nullable(), external_id: z.string().nullable() }),
    duration_seconds: z.number().int(),
    questions_answered: z.number().int(),
    questions_total: z.number().int(),
    completion_status: z.enum(COMPLETION_STATUSES),
    transcript_url: ZSignedLink,
    recording_url: ZSignedLink.optional().meta({
      description: "The merged recording once it exists, else the latest answer's; absent for a session without audio.",
    }),
  })
  .meta({ id: 'InterviewCompletedData', description: "What an `interview.completed` (and `test.webhook`) carries as Design B's `data`." });

/** Design B's envelope: `id` is the event's, the same on every retry and redelivery (deduplicate on it). */
function envelopeB<Type extends string, Data extends z.ZodType>(type: Type, data: Data) {
  return {
    id: z.string().meta({ description: "The event's id: the same on every attempt and redelivery (and the `webhook-id` of Standard Webhooks signing)." }),
    type: z.literal(type),
    created_at: ZTimestamp.meta({ description: 'When the event was published.' }),
    data,
  };
}

export const ZWebhookInterviewCompletedB = z
  .object(envelopeB('interview.completed', ZCompletedDataB))
  .meta({ id: 'WebhookInterviewCompletedB', description: '`interview.completed`, Design B: an envelope.' });

export const ZWebhookTestEventB = z
  .object(envelopeB('test.webhook', ZCompletedDataB))
  .meta({ id: 'WebhookTestEventB', description: '`test.webhook`, Design B: the shape of an `interview.completed`, with anonymized sample data.' });

export const ZFeedbackDataB = z
  .object({
    session_id: z.string(),
    campaign_id: z.string(),
    participant: z.object({ email: z.string().nullable(), name: z.string().nullable() }),
    rating: z.number().int().nullable(),
    comment: z.string().optional().meta({ description: 'Absent when the participant left no comment.' }),
    submitted_at: ZTimestamp,
  })
  .meta({ id: 'FeedbackSubmittedData', description: "What a `session.feedback_submitted` carries as Design B's `data`." });

export const ZWebhookFeedbackSubmittedB = z
  .object(envelopeB('session.feedback_submitted', ZFeedbackDataB))
  .meta({ id: 'WebhookFeedbackSubmittedB', description: '`session.feedback_submitted`, Design B: an envelope.' });

/** Every event type's body in each design: what the OpenAPI document's `webhooks` lists. */
export const WEBHOOK_PAYLOADS = {
  'interview.completed': { A: ZWebhookInterviewCompletedA, B: ZWebhookInterviewCompletedB },
  'session.feedback_submitted': { A: ZWebhookFeedbackSubmittedA, B: ZWebhookFeedbackSubmittedB },
  'test.webhook': { A: ZWebhookTestEventA, B: ZWebhookTestEventB },
} as const;

export type TDesignACommon = Omit<z.infer<typeof ZWebhookFeedbackSubmittedA>, 'event' | 'feedback'>;
export type TCompletedDataB = z.infer<typeof ZCompletedDataB>;
export type TWebhookPayloadA = z.infer<typeof ZWebhookInterviewCompletedA> | z.infer<typeof ZWebhookTestEventA> | z.infer<typeof ZWebhookFeedbackSubmittedA>;
export type TWebhookPayloadB = z.infer<typeof ZWebhookInterviewCompletedB> | z.infer<typeof ZWebhookTestEventB> | z.infer<typeof ZWebhookFeedbackSubmittedB>;
