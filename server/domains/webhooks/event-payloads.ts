import type { TCompletionStatus, TFeedback } from '../../../shared/schemas/sessions.js';
import type { TAbandonReason, TCompletedDataB, TDesignACommon, TWebhookPayloadA, TWebhookPayloadB } from '../../../shared/schemas/webhook-payloads.js';
import type { TWebhookDesign } from '../../../shared/schemas/webhooks.js';
import type { SessionBilling } from '../../entities/session.js';
import type { UrlSigner } from '../../lib/signed-urls.js';

/** Webhook links (transcript, audio) work without an API key for 24 hours (the spec, Design A). */
export const WEBHOOK_LINK_TTL_SECONDS = 24 * 3600;

/**
 * The participant's own id in the customer's system: the invite metadata's `external_id` (or
 * `externalId`), the usual way customers carry it. Every event's `participant.external_id`.
 */
export function externalIdOf(metadata: Record<string, unknown>): string | null {
  const externalId = metadata.external_id ?? metadata.externalId;
  return externalId === undefined || externalId === null ? null : String(externalId);
}

/** What every session event says of its session, fixed when the event happened. */
export interface SessionFacts {
  sessionId: string;
  projectId: string | null;
  scriptId: string;
  campaignId: string;
  campaignName: string;
  participant: { email: string | null; name: string | null; externalId: string | null };
  locale: string;
}

export interface CompletedFacts extends SessionFacts {
  durationSeconds: number;
  questionsAnswered: number;
  questionsTotal: number;
  completionStatus: TCompletionStatus;
  billing: SessionBilling | null;
  /** The session's recording when the event was published (sessionRecordings' rule), so every attempt links the same file. */
  recordingFileId: string | null;
}

export interface FeedbackFacts extends SessionFacts {
  feedback: TFeedback;
}

export interface SessionStartedFacts extends SessionFacts {
  /** ISO time the first question was asked. */
  startedAt: string;
}

export interface SessionAbandonedFacts extends SessionFacts {
  reason: TAbandonReason;
  questionsAnswered: number;
  questionsTotal: number;
}

/** What an invite's events say of it; `reason` is a bounce's. */
export interface InviteFacts {
  inviteId: string;
  campaignId: string;
  campaignName: string;
  participant: { email: string; name: string | null; externalId: string | null };
  reason?: string;
}

/** A `credits.low`'s facts: the balance the charge left, the threshold it crossed, the charge. */
export interface CreditsLowFacts {
  organizationId: string;
  balance: number;
  threshold: number;
  transactionId: string;
}

/** The event as stored (webhook_events), with the facts its type carries. */
export type StoredEvent =
  | { id: string; type: 'interview.completed'; occurredAt: Date; facts: CompletedFacts }
  | { id: string; type: 'session.feedback_submitted'; occurredAt: Date; facts: FeedbackFacts }
  | { id: string; type: 'test.webhook'; occurredAt: Date; facts: CompletedFacts }
  | { id: string; type: 'session.started'; occurredAt: Date; facts: SessionStartedFacts }
  | { id: string; type: 'session.abandoned'; occurredAt: Date; facts: SessionAbandonedFacts }
  | { id: string; type: 'transcript.ready'; occurredAt: Date; facts: SessionFacts }
  | { id: string; type: 'invite.delivered' | 'invite.bounced'; occurredAt: Date; facts: InviteFacts }
  | { id: string; type: 'credits.low'; occurredAt: Date; facts: CreditsLowFacts };

/** The event types whose bodies carry signed links (eventLinks signs them at each attempt). */
const LINKED_TYPES: ReadonlySet<StoredEvent['type']> = new Set(['interview.completed', 'test.webhook', 'transcript.ready']);

/** Whether a body of this type carries links, so its delivery and its read need `eventLinks`. */
export function carriesLinks(type: StoredEvent['type']): boolean {
  return LINKED_TYPES.has(type);
}

/** Links signed at each attempt, so a late retry still carries links valid for 24 hours. */
export interface EventLinks {
  transcriptUrl: string;
  audioUrl: string | null;
}

/** Anonymized sample data for `test.webhook`: the shape of an `interview.completed`, nobody's answers. */
export function sampleFacts(): CompletedFacts {
  return {
    sessionId: 'ses_TestEvent000000000000000',
    projectId: 'prj_TestEvent000000000000000',
    scriptId: 'scr_TestEvent000000000000000',
    campaignId: 'cam_TestEvent000000000000000',
    campaignName: 'Sample campaign',
    participant: { email: 'participant@example.com', name: 'Sample Participant', externalId: 'sample-external-id' },
    locale: 'en',
    durationSeconds: 754,
    questionsAnswered: 8,
    questionsTotal: 8,
    completionStatus: 'completed',
    billing: {
      totalMinutes: 13,
      freeMinutesApplied: 10,
      billableMinutes: 3,
      amountCredits: 3,
      chargedCredits: 3,
      owedCredits: 0,
      plan: 'starter',
      pricePerMinuteCredits: 1,
    },
    recordingFileId: null,
  };
}

/**
 * Signs an `interview.completed`'s or a `transcript.ready`'s links for this attempt (none for
 * other events); the test event gets sample links that open nothing.
 */
export async function eventLinks(signer: UrlSigner, publicUrl: string, event: StoredEvent, now: Date): Promise<EventLinks | null> {
  if (event.type === 'test.webhook') return { transcriptUrl: `${publicUrl}/files/sample-transcript`, audioUrl: `${publicUrl}/files/sample-audio` };
  if (event.type === 'transcript.ready') {
    const transcript = await signer.signFileLink({ fileId: event.facts.sessionId, purpose: 'session_transcript' }, WEBHOOK_LINK_TTL_SECONDS, now);
    return { transcriptUrl: transcript.url, audioUrl: null };
  }
  if (event.type !== 'interview.completed') return null;
  const { sessionId, recordingFileId } = event.facts;
  const transcript = await signer.signFileLink({ fileId: sessionId, purpose: 'session_transcript' }, WEBHOOK_LINK_TTL_SECONDS, now);
  const audio = recordingFileId ? await signer.signFileLink({ fileId: recordingFileId, purpose: 'session_file' }, WEBHOOK_LINK_TTL_SECONDS, now) : null;
  return { transcriptUrl: transcript.url, audioUrl: audio?.url ?? null };
}

/** Design A's common fields of a session's event: a flat object, no envelope. */
function commonA(event: StoredEvent & { facts: SessionFacts }): TDesignACommon {
  const facts = event.facts;
  return {
    project_id: facts.projectId ?? '',
    script_id: facts.scriptId,
    campaign_id: facts.campaignId,
    campaign_name: facts.campaignName,
    session_id: facts.sessionId,
    // Empty for anonymous share-link participants (the spec).
    invitee_email: facts.participant.email ?? '',
    locale: facts.locale,
    timestamp: event.occurredAt.toISOString(),
  };
}

function completedA(event: StoredEvent & { type: 'interview.completed' | 'test.webhook' }, links: EventLinks): TWebhookPayloadA {
  const { facts } = event;
  const billing = facts.billing;
  return {
    event: event.type,
    ...commonA(event),
    transcript_url: links.transcriptUrl,
    ...(links.audioUrl ? { audio_url: links.audioUrl } : {}),
    duration_ms: facts.durationSeconds * 1000,
    total_minutes: billing?.totalMinutes ?? 0,
    free_minutes_applied: billing?.freeMinutesApplied ?? 0,
    billable_minutes: billing?.billableMinutes ?? 0,
    amount_credits: billing?.amountCredits ?? 0,
    billing_plan_id: billing?.plan ?? null,
    pricing_snapshot: { price_per_minute_credits: billing?.pricePerMinuteCredits ?? 0 },
  };
}

function completedB(facts: CompletedFacts, links: EventLinks): TCompletedDataB {
  return {
    ...sessionDataB(facts),
    duration_seconds: facts.durationSeconds,
    questions_answered: facts.questionsAnswered,
    questions_total: facts.questionsTotal,
    completion_status: facts.completionStatus,
    transcript_url: links.transcriptUrl,
    ...(links.audioUrl ? { recording_url: links.audioUrl } : {}),
  };
}

/** The spec's feedback object, its fields in the spec's order (stored facts come back from jsonb reordered). */
function feedbackA(feedback: TFeedback): TFeedback {
  return {
    id: feedback.id,
    overall_rating: feedback.overall_rating,
    ease_of_use_rating: feedback.ease_of_use_rating,
    audio_quality_rating: feedback.audio_quality_rating,
    question_clarity_rating: feedback.question_clarity_rating,
    comments: feedback.comments,
    technical_issues: feedback.technical_issues,
    would_recommend: feedback.would_recommend,
    submitted_at: feedback.submitted_at,
  };
}

function participantB(participant: SessionFacts['participant']) {
  return { email: participant.email, name: participant.name, external_id: participant.externalId };
}

/** What Design B's `data` of a session's lifecycle events (started, abandoned, transcript ready) opens with. */
function sessionDataB(facts: SessionFacts) {
  return { session_id: facts.sessionId, campaign_id: facts.campaignId, script_id: facts.scriptId, participant: participantB(facts.participant) };
}

function linksOf(event: StoredEvent, links: EventLinks | null): EventLinks {
  if (!links) throw new Error(`${event.type} is sent with its links`);
  return links;
}

/** The body a delivery sends in Design A (a flat object), per event type. */
function payloadA(event: StoredEvent, links: EventLinks | null): TWebhookPayloadA {
  switch (event.type) {
    case 'interview.completed':
    case 'test.webhook':
      return completedA(event, linksOf(event, links));
    case 'session.feedback_submitted':
      return { event: event.type, ...commonA(event), feedback: feedbackA(event.facts.feedback) };
    case 'session.started':
      return { event: event.type, ...commonA(event), started_at: event.facts.startedAt };
    case 'session.abandoned':
      return {
        event: event.type,
        ...commonA(event),
        reason: event.facts.reason,
        questions_answered: event.facts.questionsAnswered,
        questions_total: event.facts.questionsTotal,
      };
    case 'transcript.ready':
      return { event: event.type, ...commonA(event), transcript_url: linksOf(event, links).transcriptUrl };
    case 'invite.delivered':
    case 'invite.bounced': {
      const { facts } = event;
      const common = {
        invite_id: facts.inviteId,
        campaign_id: facts.campaignId,
        campaign_name: facts.campaignName,
        invitee_email: facts.participant.email,
        timestamp: event.occurredAt.toISOString(),
      };
      return event.type === 'invite.delivered' ? { event: event.type, ...common } : { event: event.type, ...common, reason: facts.reason ?? '' };
    }
    case 'credits.low':
      return {
        event: event.type,
        organization_id: event.facts.organizationId,
        balance: event.facts.balance,
        threshold: event.facts.threshold,
        transaction_id: event.facts.transactionId,
        timestamp: event.occurredAt.toISOString(),
      };
  }
}

/** Design B's `data`, per event type. */
function dataB(event: StoredEvent, links: EventLinks | null): TWebhookPayloadB['data'] {
  const at = event.occurredAt.toISOString();
  switch (event.type) {
    case 'interview.completed':
    case 'test.webhook':
      return completedB(event.facts, linksOf(event, links));
    case 'session.feedback_submitted': {
      const { facts } = event;
      return {
        session_id: facts.sessionId,
        campaign_id: facts.campaignId,
        participant: { email: facts.participant.email, name: facts.participant.name },
        rating: facts.feedback.overall_rating,
        ...(facts.feedback.comments !== null ? { comment: facts.feedback.comments } : {}),
        submitted_at: facts.feedback.submitted_at,
      };
    }
    case 'session.started': {
      const { facts } = event;
      return {
        ...sessionDataB(facts),
        locale: facts.locale,
        started_at: facts.startedAt,
      };
    }
    case 'session.abandoned': {
      const { facts } = event;
      return {
        ...sessionDataB(facts),
        reason: facts.reason,
        questions_answered: facts.questionsAnswered,
        questions_total: facts.questionsTotal,
        abandoned_at: at,
      };
    }
    case 'transcript.ready': {
      const { facts } = event;
      return {
        ...sessionDataB(facts),
        transcript_url: linksOf(event, links).transcriptUrl,
      };
    }
    case 'invite.delivered':
    case 'invite.bounced': {
      const { facts } = event;
      const common = { invite_id: facts.inviteId, campaign_id: facts.campaignId, participant: participantB(facts.participant) };
      return event.type === 'invite.delivered' ? { ...common, delivered_at: at } : { ...common, reason: facts.reason ?? '', bounced_at: at };
    }
    case 'credits.low':
      return {
        organization_id: event.facts.organizationId,
        balance: event.facts.balance,
        threshold: event.facts.threshold,
        transaction_id: event.facts.transactionId,
      };
  }
}

/** The body a delivery sends, for the endpoint's design (shared/schemas/webhook-payloads.ts); `links` from eventLinks. */
export function webhookPayload(design: TWebhookDesign, event: StoredEvent, links: EventLinks | null): TWebhookPayloadA | TWebhookPayloadB {
  if (design === 'A') return payloadA(event, links);
  // The spec's order: id, type, created_at, data.
  return { id: event.id, type: event.type, created_at: event.occurredAt.toISOString(), data: dataB(event, links) } as TWebhookPayloadB;
}

/** The exact body a delivery sends (its bytes are what is signed). */
export function webhookBody(design: TWebhookDesign, event: StoredEvent, links: EventLinks | null): string {
  return JSON.stringify(webhookPayload(design, event, links));
}
