import { z } from 'zod';
import { ZPage, ZPaginationQuery, ZPathId, ZTimestamp } from './common.js';
import {
  ZCompletedDataB,
  ZCreditsLowDataB,
  ZFeedbackDataB,
  ZInviteBouncedDataB,
  ZInviteDeliveredDataB,
  ZSessionAbandonedDataB,
  ZSessionStartedDataB,
  ZTranscriptReadyDataB,
} from './webhook-payloads.js';
import { TEST_EVENT_TYPE, type TWebhookDesign, type TWebhookEventType, WEBHOOK_DESIGNS, WEBHOOK_EVENT_TYPES } from './webhooks.js';

/** How long events stay listed and readable (Stripe's 30 days): replay one within that. */
export const EVENT_RETENTION_DAYS = 30;

export const EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE] as const;

export const ZEvent = z
  .object({
    id: z
      .string()
      .meta({ description: "The event's id: Design B's envelope `id` and Standard Webhooks' `webhook-id`.", example: '0b7e3c52-8f0e-4d6b-9a57-2f1c9d4e6a10' }),
    type: z.enum(EVENT_TYPES),
    createdAt: ZTimestamp.meta({ description: 'When the event happened: for `session.started` the start, for the others when it was published.' }),
    sessionId: z.string().nullable().meta({ description: 'The session it is about; null for `test.webhook`, the invite events and `credits.low`.' }),
    data: z
      .union([
        ZCompletedDataB,
        ZFeedbackDataB,
        ZSessionStartedDataB,
        ZSessionAbandonedDataB,
        ZTranscriptReadyDataB,
        ZInviteDeliveredDataB,
        ZInviteBouncedDataB,
        ZCreditsLowDataB,
      ])
      .meta({
        description:
          "What the event's Design B envelope carries as `data` (the spec's snake_case names), whatever the endpoints' designs; its links are signed at this read, for 24 hours.",
      }),
  })
  .meta({ id: 'Event' });
export type TEvent = z.infer<typeof ZEvent>;

export const ZListEventsInput = z.strictObject({
  type: z.enum(EVENT_TYPES).optional(),
  from: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: `Events created at or after this time (at most ${EVENT_RETENTION_DAYS} days ago).` }),
  to: z.iso.datetime({ offset: true }).optional().meta({ description: 'Events created before this time.' }),
  ...ZPaginationQuery,
});
export type TListEventsInput = z.infer<typeof ZListEventsInput>;
export const ZEventPage = ZPage(ZEvent);

export const ZEventIdInput = z.strictObject({ eventId: ZPathId });

export const ZRedeliverEventInput = z.strictObject({
  eventId: ZPathId,
  endpointId: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .meta({ description: "The endpoint to send it to: any of the organization's, enabled, whatever it subscribes to." }),
});
export type TRedeliverEventInput = z.infer<typeof ZRedeliverEventInput>;

const EVENT_STREAM_TYPES_DOC = {
  description: `Event types to stream, comma-separated, from: ${WEBHOOK_EVENT_TYPES.join(', ')}. Absent: all of them.`,
  example: 'interview.completed,session.started',
};

/** `GET /v1/event-stream` (the developer CLI's `listen`): which events, in which payload design. */
export const ZEventStreamQuery = z.strictObject({
  types: z
    .string()
    .max(500)
    .meta(EVENT_STREAM_TYPES_DOC)
    .transform((value, ctx): TWebhookEventType[] => {
      const types = [...new Set(value.split(',').map((type) => type.trim()))].filter((type) => type !== '');
      const unknown = types.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
      if (unknown.length > 0 || types.length === 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must list event types from: ${WEBHOOK_EVENT_TYPES.join(', ')}${unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ''}`,
        });
        return z.NEVER;
      }
      return types as TWebhookEventType[];
    })
    .optional()
    .meta(EVENT_STREAM_TYPES_DOC),
  design: z
    .enum(WEBHOOK_DESIGNS)
    .default('B')
    .meta({ description: 'The body each event carries: Design A (flat) or B (an envelope; the default), as an endpoint of that design gets it.' }),
});
export type TEventStreamQuery = z.infer<typeof ZEventStreamQuery>;

/** One event on the stream: the body an endpoint of the asked design would get, unsigned (the CLI signs what it forwards). */
export interface TStreamedEvent {
  id: string;
  type: TWebhookEventType;
  design: TWebhookDesign;
  /** The exact JSON body, as a string: what is signed and forwarded byte for byte. */
  body: string;
}
