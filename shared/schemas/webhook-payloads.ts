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
  timestamp: ZTimestamp.meta({
    description:
      'When the event happened: for `session.started` the start, for the others when it was published (for `interview.completed`, once its transcript and insights exist).',
  }),
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

const ZParticipantB = z.object({ email: z.string().nullable(), name: z.string().nullable(), external_id: z.string().nullable() });

/** What Design B's `data` of a session's events opens with (event-payloads.ts `sessionDataB` builds it). */
const sessionDataB = { session_id: z.string(), campaign_id: z.string(), script_id: z.string(), participant: ZParticipantB };

export const ZCompletedDataB = z
  .object({
    ...sessionDataB,
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
    created_at: ZTimestamp.meta({ description: 'When the event happened: for `session.started` the start, for the others when it was published.' }),
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

/** Why a session was abandoned. */
export const ABANDON_REASONS = ['idle', 'ended_by_participant', 'consent_declined', 'invite_cancelled'] as const;
export type TAbandonReason = (typeof ABANDON_REASONS)[number];
const ZAbandonReason = z.enum(ABANDON_REASONS).meta({
  description:
    '`idle`: no answer or heartbeat for SESSION_ABANDON_AFTER (SESSION_PAUSED_ABANDON_AFTER when paused); `ended_by_participant`: the participant left (`/api/interview/end`); `consent_declined`: the participant declined the consent asked first; `invite_cancelled`: the invite was cancelled during the interview.',
});

export const ZWebhookSessionStartedA = z
  .object({ event: z.literal('session.started'), ...designACommon, started_at: ZTimestamp.meta({ description: 'When the first question was asked.' }) })
  .meta({ id: 'WebhookSessionStartedA', description: '`session.started`, Design A: a flat object.' });

export const ZSessionStartedDataB = z
  .object({
    ...sessionDataB,
    locale: z.string(),
    started_at: ZTimestamp.meta({ description: 'When the first question was asked.' }),
  })
  .meta({ id: 'SessionStartedData', description: "What a `session.started` carries as Design B's `data`." });

export const ZWebhookSessionStartedB = z
  .object(envelopeB('session.started', ZSessionStartedDataB))
  .meta({ id: 'WebhookSessionStartedB', description: '`session.started`, Design B: an envelope.' });

export const ZWebhookSessionAbandonedA = z
  .object({
    event: z.literal('session.abandoned'),
    ...designACommon,
    reason: ZAbandonReason,
    questions_answered: z.number().int(),
    questions_total: z.number().int(),
  })
  .meta({ id: 'WebhookSessionAbandonedA', description: '`session.abandoned`, Design A: a flat object.' });

export const ZSessionAbandonedDataB = z
  .object({
    ...sessionDataB,
    reason: ZAbandonReason,
    questions_answered: z.number().int(),
    questions_total: z.number().int(),
    abandoned_at: ZTimestamp,
  })
  .meta({ id: 'SessionAbandonedData', description: "What a `session.abandoned` carries as Design B's `data`." });

export const ZWebhookSessionAbandonedB = z
  .object(envelopeB('session.abandoned', ZSessionAbandonedDataB))
  .meta({ id: 'WebhookSessionAbandonedB', description: '`session.abandoned`, Design B: an envelope.' });

export const ZWebhookTranscriptReadyA = z
  .object({ event: z.literal('transcript.ready'), ...designACommon, transcript_url: ZSignedLink })
  .meta({ id: 'WebhookTranscriptReadyA', description: '`transcript.ready`, Design A: a flat object.' });

export const ZTranscriptReadyDataB = z
  .object({ ...sessionDataB, transcript_url: ZSignedLink })
  .meta({ id: 'TranscriptReadyData', description: "What a `transcript.ready` carries as Design B's `data`." });

export const ZWebhookTranscriptReadyB = z
  .object(envelopeB('transcript.ready', ZTranscriptReadyDataB))
  .meta({ id: 'WebhookTranscriptReadyB', description: '`transcript.ready`, Design B: an envelope.' });

/** Design A's fields of an invite's events (no session yet). */
const ZBounceReason = z
  .string()
  .meta({ description: "The mail server's refusal: its reply code and the command it refused (`SMTP server replied 550 5.1.1 to RCPT TO`)." });

const designAInvite = {
  invite_id: z.string(),
  campaign_id: z.string(),
  campaign_name: z.string(),
  invitee_email: z.string(),
  timestamp: ZTimestamp.meta({ description: 'When the mail server accepted or refused the message.' }),
};

export const ZWebhookInviteDeliveredA = z
  .object({ event: z.literal('invite.delivered'), ...designAInvite })
  .meta({ id: 'WebhookInviteDeliveredA', description: '`invite.delivered`, Design A: a flat object.' });

export const ZWebhookInviteBouncedA = z
  .object({
    event: z.literal('invite.bounced'),
    ...designAInvite,
    reason: ZBounceReason,
  })
  .meta({ id: 'WebhookInviteBouncedA', description: '`invite.bounced`, Design A: a flat object.' });

const inviteDataB = {
  invite_id: z.string(),
  campaign_id: z.string(),
  participant: ZParticipantB,
};

export const ZInviteDeliveredDataB = z
  .object({ ...inviteDataB, delivered_at: ZTimestamp.meta({ description: 'When the mail server accepted the message.' }) })
  .meta({ id: 'InviteDeliveredData', description: "What an `invite.delivered` carries as Design B's `data`." });

export const ZWebhookInviteDeliveredB = z
  .object(envelopeB('invite.delivered', ZInviteDeliveredDataB))
  .meta({ id: 'WebhookInviteDeliveredB', description: '`invite.delivered`, Design B: an envelope.' });

export const ZInviteBouncedDataB = z
  .object({
    ...inviteDataB,
    reason: ZBounceReason,
    bounced_at: ZTimestamp.meta({ description: 'When the mail server refused the message.' }),
  })
  .meta({ id: 'InviteBouncedData', description: "What an `invite.bounced` carries as Design B's `data`." });

export const ZWebhookInviteBouncedB = z
  .object(envelopeB('invite.bounced', ZInviteBouncedDataB))
  .meta({ id: 'WebhookInviteBouncedB', description: '`invite.bounced`, Design B: an envelope.' });

const creditsLowFields = {
  balance: z.number().meta({
    description: 'The credit balance after the charge that crossed the threshold (not less the credits held by interviews in progress).',
  }),
  threshold: z.number().int().meta({ description: "The organization's `settings.creditsLowThreshold` at the time." }),
  transaction_id: z.string().meta({ description: 'The credit transaction (ledger entry, `txn_…`) of the charge that took the balance below the threshold.' }),
};

export const ZWebhookCreditsLowA = z
  .object({ event: z.literal('credits.low'), organization_id: z.string(), ...creditsLowFields, timestamp: ZTimestamp })
  .meta({ id: 'WebhookCreditsLowA', description: '`credits.low`, Design A: a flat object.' });

export const ZCreditsLowDataB = z
  .object({ organization_id: z.string(), ...creditsLowFields })
  .meta({ id: 'CreditsLowData', description: "What a `credits.low` carries as Design B's `data`." });

export const ZWebhookCreditsLowB = z
  .object(envelopeB('credits.low', ZCreditsLowDataB))
  .meta({ id: 'WebhookCreditsLowB', description: '`credits.low`, Design B: an envelope.' });

/** Every event type's body in each design: what the OpenAPI document's `webhooks` lists. */
export const WEBHOOK_PAYLOADS = {
  'interview.completed': { A: ZWebhookInterviewCompletedA, B: ZWebhookInterviewCompletedB },
  'session.feedback_submitted': { A: ZWebhookFeedbackSubmittedA, B: ZWebhookFeedbackSubmittedB },
  'session.started': { A: ZWebhookSessionStartedA, B: ZWebhookSessionStartedB },
  'session.abandoned': { A: ZWebhookSessionAbandonedA, B: ZWebhookSessionAbandonedB },
  'transcript.ready': { A: ZWebhookTranscriptReadyA, B: ZWebhookTranscriptReadyB },
  'invite.delivered': { A: ZWebhookInviteDeliveredA, B: ZWebhookInviteDeliveredB },
  'invite.bounced': { A: ZWebhookInviteBouncedA, B: ZWebhookInviteBouncedB },
  'credits.low': { A: ZWebhookCreditsLowA, B: ZWebhookCreditsLowB },
  'test.webhook': { A: ZWebhookTestEventA, B: ZWebhookTestEventB },
} as const;

export type TDesignACommon = Omit<z.infer<typeof ZWebhookFeedbackSubmittedA>, 'event' | 'feedback'>;
export type TCompletedDataB = z.infer<typeof ZCompletedDataB>;
type Payloads = typeof WEBHOOK_PAYLOADS;
/** The body of a Design A delivery, of any event type. */
export type TWebhookPayloadA = { [Type in keyof Payloads]: z.infer<Payloads[Type]['A']> }[keyof Payloads];
/** The body of a Design B delivery, of any event type. */
export type TWebhookPayloadB = { [Type in keyof Payloads]: z.infer<Payloads[Type]['B']> }[keyof Payloads];
