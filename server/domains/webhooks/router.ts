import { z } from 'zod';
import { ZEvent, ZEventIdInput, ZEventPage, ZListEventsInput, ZRedeliverEventInput } from '../../../shared/schemas/events.js';
import {
  ZCreateWebhookInput,
  ZDeliveryIdInput,
  ZListDeliveriesInput,
  ZListWebhooksInput,
  ZUpdateWebhookInput,
  ZWebhookDelivery,
  ZWebhookDeliveryPage,
  ZWebhookEndpoint,
  ZWebhookEndpointIdInput,
  ZWebhookEndpointPage,
  ZWebhookEndpointWithSecret,
  WEBHOOK_EVENT_TYPES,
} from '../../../shared/schemas/webhooks.js';
import { apiProcedure, router } from '../../trpc/trpc.js';
import { createWebhookEndpoint } from './create-webhook-endpoint.js';
import { deleteWebhookEndpoint } from './delete-webhook-endpoint.js';
import { getEvent } from './get-event.js';
import { getDelivery } from './get-webhook-delivery.js';
import { listEvents } from './list-events.js';
import { redeliverEvent } from './redeliver-event.js';
import { getWebhookEndpoint } from './get-webhook-endpoint.js';
import { listWebhookDeliveries } from './list-webhook-deliveries.js';
import { listWebhookEndpoints } from './list-webhook-endpoints.js';
import { redeliverWebhook } from './redeliver-webhook.js';
import { rotateWebhookSecret } from './rotate-webhook-secret.js';
import { sendTestEvent } from './send-test-event.js';
import { triggerTestEvent } from './trigger-test-event.js';
import { updateWebhookEndpoint } from './update-webhook-endpoint.js';

const tags = ['Webhooks'];
const eventTags = ['Events'];

/** Webhook endpoints and their deliveries (design.md "Webhooks"), under the spec's `/api/webhooks`. */
export const webhooksRouter = router({
  create: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/webhooks',
        tags,
        summary: 'Create a webhook endpoint',
        description:
          'HTTPS only; a host that is or resolves to a loopback, private, link-local or metadata address is refused (422 on `url`). The answer carries the signing secret, shown once.',
      },
      permission: 'organization:write',
      successStatus: 201,
      location: '/api/webhooks/{id}',
    })
    .input(ZCreateWebhookInput)
    .output(ZWebhookEndpointWithSecret)
    .mutation(({ ctx, input }) => createWebhookEndpoint(ctx, ctx.auth, input)),

  list: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/api/webhooks', tags, summary: 'List webhook endpoints' }, permission: 'organization:read' })
    .input(ZListWebhooksInput)
    .output(ZWebhookEndpointPage)
    .query(({ ctx, input }) => listWebhookEndpoints(ctx, ctx.auth, input)),

  get: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/api/webhooks/{endpointId}', tags, summary: 'Get a webhook endpoint' }, permission: 'organization:read' })
    .input(ZWebhookEndpointIdInput)
    .output(ZWebhookEndpoint)
    .query(({ ctx, input }) => getWebhookEndpoint(ctx, ctx.auth, input)),

  update: apiProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/api/webhooks/{endpointId}',
        tags,
        summary: 'Update a webhook endpoint (url, events, design, signature scheme, description, status)',
      },
      permission: 'organization:write',
    })
    .input(ZUpdateWebhookInput)
    .output(ZWebhookEndpoint)
    .mutation(({ ctx, input }) => updateWebhookEndpoint(ctx, ctx.auth, input)),

  delete: apiProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/api/webhooks/{endpointId}', tags, summary: 'Delete a webhook endpoint and its deliveries' },
      permission: 'organization:write',
      successStatus: 204,
    })
    .input(ZWebhookEndpointIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteWebhookEndpoint(ctx, ctx.auth, input)),

  rotateSecret: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/webhooks/{endpointId}/rotate-secret',
        tags,
        summary: "Rotate an endpoint's signing secret",
        description:
          'The new secret is in this answer only. Design A: it signs everything from now on. Design B: for WEBHOOK_ROTATION_OVERLAP_SECONDS (default 24 h) every delivery is sent twice, signed with the old and with the new secret.',
      },
      permission: 'organization:write',
    })
    .input(ZWebhookEndpointIdInput)
    .output(ZWebhookEndpointWithSecret)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx, ctx.auth, input)),

  sendTest: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/webhooks/{endpointId}/test',
        tags,
        summary: 'Send a test event',
        description: 'A `test.webhook` event with anonymized sample data, to this endpoint only, signed with its real secret; answers the delivery.',
      },
      permission: 'organization:write',
      successStatus: 201,
      location: '/api/webhooks/deliveries/{id}',
      errors: ['WEBHOOK_ENDPOINT_DISABLED'],
    })
    .input(ZWebhookEndpointIdInput)
    .output(ZWebhookDelivery)
    .mutation(({ ctx, input }) => sendTestEvent(ctx, ctx.auth, input)),

  listDeliveries: apiProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/webhooks/{endpointId}/deliveries',
        tags,
        summary: "List an endpoint's deliveries, newest first, with every attempt",
      },
      permission: 'organization:read',
    })
    .input(ZListDeliveriesInput)
    .output(ZWebhookDeliveryPage)
    .query(({ ctx, input }) => listWebhookDeliveries(ctx, ctx.auth, input)),

  getDelivery: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/api/webhooks/deliveries/{deliveryId}', tags, summary: 'Get a delivery with every attempt' },
      permission: 'organization:read',
    })
    .input(ZDeliveryIdInput)
    .output(ZWebhookDelivery)
    .query(({ ctx, input }) => getDelivery(ctx, ctx.auth, input)),

  redeliver: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/webhooks/deliveries/{deliveryId}/redeliver',
        tags,
        summary: 'Redeliver an event',
        description: 'The same event to the same endpoint again, as a new delivery with its own schedule. Only finished deliveries (failed or succeeded).',
      },
      permission: 'organization:write',
      successStatus: 201,
      location: '/api/webhooks/deliveries/{id}',
      errors: ['WEBHOOK_DELIVERY_PENDING', 'WEBHOOK_ENDPOINT_DISABLED'],
    })
    .input(ZDeliveryIdInput)
    .output(ZWebhookDelivery)
    .mutation(({ ctx, input }) => redeliverWebhook(ctx, ctx.auth, input)),
});

/**
 * The organization's events (issue 35), under `/v1/events`: what happened, whether or not an
 * endpoint got it, for 30 days, and a way to send any of them to an endpoint again.
 */
export const eventsRouter = router({
  list: apiProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/v1/events',
        tags: eventTags,
        summary: 'List events of the last 30 days, newest first',
        description: 'Every event of the organization (those of test events included), by `type` and time, each with its Design B `data`.',
      },
      // Events carry participants' data and signed transcript links: the sessions' permission too.
      permission: ['organization:read', 'sessions:read'],
    })
    .input(ZListEventsInput)
    .output(ZEventPage)
    .query(({ ctx, input }) => listEvents(ctx, ctx.auth, input)),

  get: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/v1/events/{eventId}', tags: eventTags, summary: 'Get an event of the last 30 days' },
      permission: ['organization:read', 'sessions:read'],
    })
    .input(ZEventIdInput)
    .output(ZEvent)
    .query(({ ctx, input }) => getEvent(ctx, ctx.auth, input)),

  redeliver: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/v1/events/{eventId}/redeliver',
        tags: eventTags,
        summary: 'Send an event to an endpoint (again)',
        description:
          'A new delivery of an event of the last 30 days to one enabled endpoint of the organization, whatever it subscribes to, in its design of now, with its own schedule. Answers the delivery.',
      },
      permission: ['organization:write', 'sessions:read'],
      successStatus: 201,
      location: '/api/webhooks/deliveries/{id}',
      errors: ['WEBHOOK_ENDPOINT_DISABLED'],
    })
    .input(ZRedeliverEventInput)
    .output(ZWebhookDelivery)
    .mutation(({ ctx, input }) => redeliverEvent(ctx, ctx.auth, input)),

  trigger: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/v1/test-helpers/events',
        tags: eventTags,
        summary: 'Make a sample event in test mode',
        description:
          'Test keys only (`isk_test_…`; a live key is 403 `TEST_MODE_ONLY`): an event of `type` with sample data, published in the test world as a real one is (recorded, delivered to the test endpoints subscribed to it, on the event stream). What `npm run cli -- trigger <type>` calls with a test key. Answers the event.',
      },
      permission: ['organization:write', 'sessions:read'],
      successStatus: 201,
      location: '/v1/events/{id}',
      errors: ['TEST_MODE_ONLY'],
    })
    .input(z.strictObject({ type: z.enum(WEBHOOK_EVENT_TYPES) }))
    .output(ZEvent)
    .mutation(({ ctx, input }) => triggerTestEvent(ctx, ctx.auth, input)),
});
