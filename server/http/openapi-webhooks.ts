import type { z } from 'zod';
import { WEBHOOK_PAYLOADS } from '../../shared/schemas/webhook-payloads.js';
import { DELIVERY_SCHEDULES } from '../domains/webhooks/delivery-schedule.js';
import { carriesLinks, type EventLinks, sampleFacts, type StoredEvent, webhookPayload } from '../domains/webhooks/event-payloads.js';

type JsonObject = Record<string, any>;

/** A payload schema's component name: its `meta` id. */
const componentName = (schema: z.ZodType): string => schema.meta()!.id as string;

/** Every payload schema of WEBHOOK_PAYLOADS, as components: an event type added there is published here. */
export const WEBHOOK_PAYLOAD_DEFS: Record<string, z.ZodType> = Object.fromEntries(
  Object.values(WEBHOOK_PAYLOADS).flatMap(({ A, B }) => [A, B].map((schema) => [componentName(schema), schema])),
);

const SUMMARIES: Record<keyof typeof WEBHOOK_PAYLOADS, string> = {
  'interview.completed': 'A session finished',
  'session.feedback_submitted': 'A participant gave feedback',
  'session.started': 'A participant began an interview',
  'session.abandoned': 'An interview was abandoned',
  'transcript.ready': "A session's transcript is ready",
  'invite.delivered': 'An invitation email was accepted by the mail server',
  'invite.bounced': 'An invitation email was refused',
  'credits.low': 'The credit balance fell below the alert threshold',
  'test.webhook': 'A test event',
};

const DESCRIPTIONS: Record<keyof typeof WEBHOOK_PAYLOADS, string> = {
  'interview.completed': 'A session finished (completed, timed out or abandoned: Design B says which), once its transcript, insights and files exist.',
  'session.feedback_submitted': 'A participant sent the post-interview feedback.',
  'session.started':
    'A participant was asked the first question (after consent where the campaign asks for it); not sent for previews. Published by a job moments after the start.',
  'session.abandoned':
    'A session ended unfinished (`reason`: idle, ended by the participant, consent declined, invite cancelled), as it happens; its `interview.completed` (completion_status abandoned) follows once its transcript and files exist.',
  'transcript.ready':
    "A finished session's transcript (with sentiment and keywords) is stored and its link works; not sent when the session has nothing to transcribe. `interview.completed` follows once insights and files exist.",
  'invite.delivered':
    "The participant's mail server accepted an invitation email (at each send, a resend included). Accepted is not read: a later bounce from the recipient's server is not reported.",
  'invite.bounced':
    "The participant's mail server refused an invitation email permanently (an unknown address, a rejected recipient); the invite's `emailStatus` is `bounced`.",
  'credits.low':
    "A charge took the organization's credit balance from `settings.creditsLowThreshold` or more to below it (set it with `PATCH /v1/organization`); once per crossing, again only after a top-up lifts the balance back.",
  'test.webhook': 'Sent only by "Send test event", to the one endpoint asked for: anonymized sample data in the shape of an `interview.completed`.',
};

const SIGNATURE_HEADERS: JsonObject[] = [
  {
    name: 'X-Webhook-Signature',
    in: 'header',
    required: false,
    description: "Design A, the design's own signing: hex HMAC-SHA256 of the exact raw body, keyed with the endpoint's secret (its UTF-8).",
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  {
    name: 'X-Webhook-Event',
    in: 'header',
    required: false,
    description: "Design A: the event type (the body's `event`).",
    schema: { type: 'string' },
  },
  {
    name: 'X-Interview-Timestamp',
    in: 'header',
    required: false,
    description: "Design B, the design's own signing: Unix milliseconds at sending. Refuse one more than 5 minutes off.",
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'X-Interview-Signature',
    in: 'header',
    required: false,
    description:
      "Design B, the design's own signing: hex HMAC-SHA256 of `<X-Interview-Timestamp>.<raw body>`, keyed with the secret. During a rotation each event comes twice, once per secret.",
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  {
    name: 'webhook-id',
    in: 'header',
    required: false,
    description: "Standard Webhooks signing (`signatureScheme: standard_webhooks`): the event's id, the same on every retry and redelivery.",
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: false,
    description: 'Standard Webhooks signing: Unix seconds at signing.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: false,
    description:
      'Standard Webhooks signing: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` keyed with the bytes of the secret after `whsec_` (base64); two, space-separated, during a rotation. Verify with the `standardwebhooks` or `svix` libraries.',
    schema: { type: 'string' },
  },
];

/** Sample links: what an attempt signs afresh. */
const SAMPLE_LINKS: EventLinks = {
  transcriptUrl: 'https://interviews.example.com/files/eyJ0cmFuc2NyaXB0Ijp0cnVlfQ.signature',
  audioUrl: 'https://interviews.example.com/files/eyJhdWRpbyI6dHJ1ZX0.signature',
};

function sampleEvent(type: keyof typeof WEBHOOK_PAYLOADS): StoredEvent {
  const base = { id: '0b7e3c52-8f0e-4d6b-9a57-2f1c9d4e6a10', occurredAt: new Date('2026-11-25T09:30:00.000Z') };
  const { sessionId, projectId, scriptId, campaignId, campaignName, participant, locale } = sampleFacts();
  const session = { sessionId, projectId, scriptId, campaignId, campaignName, participant, locale };
  const invite = { inviteId: 'inv_TestEvent000000000000000', campaignId, campaignName, participant: { ...participant, email: participant.email! } };
  switch (type) {
    case 'interview.completed':
    case 'test.webhook':
      return { ...base, type, facts: sampleFacts() };
    case 'session.started':
      return { ...base, type, facts: { ...session, startedAt: '2026-11-25T09:29:59.412Z' } };
    case 'session.abandoned':
      return { ...base, type, facts: { ...session, reason: 'idle', questionsAnswered: 3, questionsTotal: 8 } };
    case 'transcript.ready':
      return { ...base, type, facts: session };
    case 'invite.delivered':
      return { ...base, type, facts: invite };
    case 'invite.bounced':
      return { ...base, type, facts: { ...invite, reason: 'SMTP server replied 550 5.1.1 to RCPT TO' } };
    case 'credits.low':
      return {
        ...base,
        type,
        facts: { organizationId: 'org_TestEvent000000000000000', balance: 48.5, threshold: 50, transactionId: 'txn_TestEvent000000000000000' },
      };
    case 'session.feedback_submitted':
      return {
        ...base,
        type,
        facts: {
          ...session,
          feedback: {
            id: 'fbk_TestEvent000000000000000',
            overall_rating: 5,
            ease_of_use_rating: 4,
            audio_quality_rating: 5,
            question_clarity_rating: 4,
            comments: 'Easy to follow.',
            technical_issues: null,
            would_recommend: true,
            submitted_at: '2026-11-25T09:29:58.120Z',
          },
        },
      };
  }
}

/**
 * The OpenAPI 3.1 `webhooks`: each event type a receiver's `POST`, its body in either design
 * (the endpoint's `design`), an example of each, and every signature header.
 */
export function webhooksSection(): JsonObject {
  const webhooks: JsonObject = {};
  for (const type of Object.keys(WEBHOOK_PAYLOADS) as (keyof typeof WEBHOOK_PAYLOADS)[]) {
    const event = sampleEvent(type);
    const links = carriesLinks(type) ? SAMPLE_LINKS : null;
    const names = { A: componentName(WEBHOOK_PAYLOADS[type].A), B: componentName(WEBHOOK_PAYLOADS[type].B) };
    webhooks[type] = {
      post: {
        operationId: `webhook-${type.replace(/[._]/g, '-')}`,
        tags: ['Webhooks'],
        summary: SUMMARIES[type],
        description: `${DESCRIPTIONS[type]} Sent to every enabled endpoint subscribed to \`${type}\` or \`*\` (\`test.webhook\`: only the one tested). The body is the endpoint's design: A (flat) or B (an envelope). Receivers must ignore fields and event types they do not know.`,
        security: [],
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { oneOf: [{ $ref: `#/components/schemas/${names.A}` }, { $ref: `#/components/schemas/${names.B}` }] },
              examples: {
                designA: { summary: 'Design A', value: webhookPayload('A', event, links) },
                designB: { summary: 'Design B', value: webhookPayload('B', event, links) },
              },
            },
          },
        },
        responses: {
          '2XX': {
            description: `Received. Answer 2xx within ${DELIVERY_SCHEDULES.A.deadlineMs / 1000} s (Design A) or ${DELIVERY_SCHEDULES.B.deadlineMs / 1000} s (Design B); anything else (a 3xx too: redirects are not followed) is retried on the design's schedule, and 410 Gone disables the endpoint.`,
          },
        },
      },
    };
  }
  return webhooks;
}
