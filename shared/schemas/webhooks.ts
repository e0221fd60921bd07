import { z } from 'zod';
import { ZPage, ZPaginationQuery, ZPathId, ZTimestamp } from './common.js';

/**
 * Event types customers subscribe to. `*` subscribes to every type, those added later included;
 * receivers must ignore types they do not know (the spec's rule).
 */
export const WEBHOOK_EVENT_TYPES = [
  'interview.completed',
  'session.feedback_submitted',
  'session.started',
  'session.abandoned',
  'transcript.ready',
  'invite.delivered',
  'invite.bounced',
  'credits.low',
] as const;
export type TWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by the "send test event" action, to the one endpoint it is asked for. */
export const TEST_EVENT_TYPE = 'test.webhook';
export type TDeliveredEventType = TWebhookEventType | typeof TEST_EVENT_TYPE;

/** The spec's two payload designs: A (flat payload, `X-Webhook-Signature`), B (envelope, timestamped signature). */
export const WEBHOOK_DESIGNS = ['A', 'B'] as const;
export type TWebhookDesign = (typeof WEBHOOK_DESIGNS)[number];

/**
 * How deliveries are signed, whatever their payload design. `design`: the design's own headers
 * (the spec's: A `X-Webhook-Signature`, B `X-Interview-Signature` with `X-Interview-Timestamp`).
 * `standard_webhooks`: the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`), which its receiver libraries (`standardwebhooks`, `svix`) verify; during a
 * secret rotation each request carries both signatures in the one header.
 */
export const WEBHOOK_SIGNATURE_SCHEMES = ['design', 'standard_webhooks'] as const;
export type TWebhookSignatureScheme = (typeof WEBHOOK_SIGNATURE_SCHEMES)[number];

const ZSignatureScheme = z.enum(WEBHOOK_SIGNATURE_SCHEMES).meta({
  description:
    "How deliveries are signed. `design` (the default): the payload design's own headers. `standard_webhooks`: the Standard Webhooks headers `webhook-id` (the event's id), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, keyed with the secret's base64 after `whsec_`), verified by the `standardwebhooks` or `svix` libraries; during a rotation's overlap one request carries both signatures.",
});

export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const ZWebhookUrl = z.url({ protocol: /^https$/, message: 'must be an https:// URL' }).max(2048);

const ZEventSubscription = z
  .array(z.union([z.enum(WEBHOOK_EVENT_TYPES), z.literal('*')]))
  .min(1, 'must name at least one event (or *)')
  .max(20)
  .refine((events) => new Set(events).size === events.length, 'must not repeat an event')
  .meta({
    description:
      'Event types to receive: `interview.completed`, `session.feedback_submitted`, `session.started`, `session.abandoned`, `transcript.ready`, `invite.delivered`, `invite.bounced`, `credits.low`, or `*` for every type, later ones included.',
  });

const ZDescription = z.string().trim().max(500, 'must be at most 500 characters');

export const ZWebhookEndpoint = z
  .object({
    id: z.string().meta({ example: 'whe_4fS0m3Ex4mpl3Id0000000' }),
    url: z.string().meta({ example: 'https://hooks.example.com/interviews' }),
    events: z.array(z.string()),
    design: z.enum(WEBHOOK_DESIGNS),
    signatureScheme: ZSignatureScheme,
    description: z.string().nullable(),
    status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
    disabledReason: z
      .enum(['gone', 'manual'])
      .nullable()
      .meta({ description: '`gone`: the endpoint answered 410 Gone; `manual`: disabled by an update. Re-enable with `status: enabled`.' }),
    secretRotatedAt: ZTimestamp.nullable(),
    previousSecretExpiresAt: ZTimestamp.nullable().meta({
      description:
        'After a rotation (Design B, or Standard Webhooks signing): until then the old secret signs too. Design B sends every delivery twice, once per secret; Standard Webhooks sends it once with both signatures.',
    }),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

/** The endpoint with its signing secret: only in the answers of create and rotate (shown once). */
export const ZWebhookEndpointWithSecret = ZWebhookEndpoint.extend({
  secret: z
    .string()
    .meta({ description: 'The signing secret, shown once. Keep it on your server only.', example: 'whsec_3q2-7w4Xb1uJ0cHk9yVd6M2pR8tL5aNe_Qz1sFg' }),
}).meta({ id: 'WebhookEndpointWithSecret' });

export const ZCreateWebhookInput = z.strictObject({
  url: ZWebhookUrl,
  events: ZEventSubscription,
  design: z.enum(WEBHOOK_DESIGNS).optional().meta({ description: 'Payload design; default WEBHOOK_DESIGN (A).' }),
  signatureScheme: ZSignatureScheme.optional(),
  description: ZDescription.nullish(),
});
export type TCreateWebhookInput = z.infer<typeof ZCreateWebhookInput>;

export const ZUpdateWebhookInput = z.strictObject({
  endpointId: ZPathId,
  url: ZWebhookUrl.optional(),
  events: ZEventSubscription.optional(),
  design: z.enum(WEBHOOK_DESIGNS).optional(),
  signatureScheme: ZSignatureScheme.optional(),
  description: ZDescription.nullish(),
  status: z
    .enum(WEBHOOK_ENDPOINT_STATUSES)
    .optional()
    .meta({ description: '`disabled` stops deliveries (those waiting fail); `enabled` re-enables an endpoint.' }),
});
export type TUpdateWebhookInput = z.infer<typeof ZUpdateWebhookInput>;

export const ZWebhookEndpointIdInput = z.strictObject({ endpointId: ZPathId });

export const ZListWebhooksInput = z.strictObject({ ...ZPaginationQuery });
export const ZWebhookEndpointPage = ZPage(ZWebhookEndpoint);

export const ZDeliveryAttempt = z
  .object({
    number: z.number().int(),
    at: ZTimestamp,
    statusCode: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when no answer came." }),
    durationMs: z.number().int(),
    error: z.string().nullable().meta({ description: 'Why the attempt failed (timeout, connection, tls, non-2xx, redirect…); null when it succeeded.' }),
    responseBody: z.string().nullable().meta({ description: "The start of the receiver's answer (at most 1,024 characters)." }),
    signedWith: z.enum(['current', 'previous', 'both']).meta({
      description:
        'The secret the request was signed with. During a rotation Design B sends a request per secret (`current`, `previous`); Standard Webhooks signing sends one carrying both signatures (`both`).',
    }),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });
export type TDeliveryAttempt = z.infer<typeof ZDeliveryAttempt>;

export const ZWebhookDelivery = z
  .object({
    id: z.string().meta({ example: 'whd_4fS0m3Ex4mpl3Id0000000' }),
    endpointId: z.string(),
    eventId: z.string().meta({ description: 'The event (Design B: the envelope `id`, the same on every attempt and redelivery).' }),
    event: z.string(),
    sessionId: z.string().nullable(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.array(ZDeliveryAttempt),
    nextAttemptAt: ZTimestamp.nullable(),
    redeliveryOf: z.string().nullable().meta({ description: 'The delivery this one repeats, for a manual redelivery.' }),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'WebhookDelivery' });
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZListDeliveriesInput = z.strictObject({
  endpointId: ZPathId,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  ...ZPaginationQuery,
});
export type TListDeliveriesInput = z.infer<typeof ZListDeliveriesInput>;
export const ZWebhookDeliveryPage = ZPage(ZWebhookDelivery);

export const ZDeliveryIdInput = z.strictObject({ deliveryId: ZPathId });
