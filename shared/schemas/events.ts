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
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from './webhooks.js';

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
