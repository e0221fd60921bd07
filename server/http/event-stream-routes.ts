import { z } from 'zod';
import { ZEventStreamQuery } from '../../shared/schemas/events.js';
import { pollEventStream, startEventStream, streamCallerStillAuthorized } from '../domains/webhooks/stream-events.js';
import { defineStreamOperation } from './stream-operation.js';

/** How often a stream reads new events. */
export const EVENT_STREAM_POLL_MS = 1000;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;
/** How often a stream checks that its API key is still neither revoked nor expired. */
const CREDENTIAL_CHECK_MS = 5000;
/** A stream ends after this long; the CLI reconnects with `Last-Event-ID` and loses nothing. Deploys and load balancers need streams to end. */
const STREAM_LIFETIME_MS = 10 * 60_000;

/**
 * `GET /v1/event-stream`: the organization's events as they are written, as Server-Sent Events,
 * for the developer CLI's `listen` (clients/cli), which forwards each to a local URL, signed. It
 * reads with an API key, sees only its own organization's events, and needs what the events API
 * needs. Not under `/v1/events/…`, where `{eventId}` would take `stream` for an id.
 */
export const eventStreamOperation = defineStreamOperation({
  method: 'GET',
  path: '/v1/event-stream',
  permission: ['organization:read', 'sessions:read'],
  query: ZEventStreamQuery,
  openapi: {
    operationId: 'events-stream',
    tags: ['Events'],
    summary: 'Stream events as they happen (Server-Sent Events)',
    description:
      "The organization's events from now on, each once, as an endpoint of the asked `design` would get its body, for local development (`npm run cli -- listen`). A `ready` event first (`{ organizationId, design, types }`), then one `webhook` event per event: `id` is the event's id, `data` is `{ id, type, design, body }` with `body` the exact JSON text to sign and forward. Reconnect with `Last-Event-ID` to go on after the last event received. Comment lines keep a quiet stream open; the server ends a stream after 10 minutes, or when the process shuts down (reconnect), and with an `error` event when the API key is revoked or expires. `test.webhook` is not streamed.",
    responses: {
      '200': {
        description: 'The event stream',
        content: {
          'text/event-stream': { schema: z.string().meta({ description: 'Server-Sent Events: `event: ready` once, then `event: webhook` per event.' }) },
        },
      },
    },
  },
  handler:
    (services) =>
    async ({ req, res, caller, query, serving }) => {
      // The domain reads with the caller's organization only: another organization's events never reach this stream.
      const scope = caller;
      const lastEventId = req.get('Last-Event-ID')?.trim() || undefined;
      const position = await startEventStream(services.orm.em.fork(), scope, lastEventId);
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      // nginx and similar proxies would buffer the stream otherwise.
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      let open = true;
      res.on('close', () => (open = false));
      const write = (text: string) => {
        if (open) res.write(text);
      };
      write(
        `retry: 2000\n\nevent: ready\ndata: ${JSON.stringify({ organizationId: scope.organizationId, design: query.design, types: query.types ?? null })}\n\n`,
      );
      const endsAt = Date.now() + STREAM_LIFETIME_MS;
      let quietSince = Date.now();
      // Ends when the process begins to shut down, so that shutdown does not wait out its grace
      // for this answer: the CLI reconnects (to another process, or to this one restarted).
      let checkedAt = Date.now();
      while (open && Date.now() < endsAt && serving()) {
        // A reader that stopped reading: wait for it rather than buffer the organization's events.
        if (res.writableNeedDrain) await new Promise((resolve) => (res.once('drain', resolve), res.once('close', resolve)));
        if (Date.now() - checkedAt >= CREDENTIAL_CHECK_MS) {
          checkedAt = Date.now();
          const authorized = await streamCallerStillAuthorized(services.orm.em.fork(), scope).catch(() => true);
          if (!authorized) {
            write(`event: error\ndata: ${JSON.stringify({ code: 'INVALID_API_KEY', message: 'The API key was revoked or has expired.' })}\n\n`);
            break;
          }
        }
        try {
          const events = await pollEventStream({ em: services.orm.em.fork(), services }, scope, query, position);
          for (const event of events) write(`id: ${event.id}\nevent: webhook\ndata: ${JSON.stringify(event)}\n\n`);
          if (events.length > 0) quietSince = Date.now();
        } catch (error) {
          // The database away for a moment: the stream waits and reads on from where it was.
          services.logger.warn({ err: error, organizationId: scope.organizationId }, 'event stream poll failed; retrying');
        }
        if (Date.now() - quietSince >= KEEP_ALIVE_MS) {
          write(': keep-alive\n\n');
          quietSince = Date.now();
        }
        await new Promise((resolve) => setTimeout(resolve, EVENT_STREAM_POLL_MS).unref());
      }
      if (open) res.end();
    },
});
