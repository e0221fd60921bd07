import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { type TEventStreamQuery, ZEventStreamQuery } from '../../shared/schemas/events.js';
import type { CustomerAuth } from '../domains/common/caller.js';
import { AppError } from '../errors.js';
import type { AppServices } from '../services.js';
import { isApiKeyStillUsable } from '../domains/api-keys/index.js';
import { pollEventStream, positionToken, startEventStream } from '../domains/webhooks/stream-events.js';
import { defineStreamOperation } from './stream-operation.js';

/** How often a stream reads new events. */
export const EVENT_STREAM_POLL_MS = 1000;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;
/** Open streams one API key may hold at a time, per process: each polls the database every second. */
const STREAMS_PER_CREDENTIAL = 5;
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
      "The organization's events from now on, each once, as an endpoint of the asked `design` would get its body, for local development (`npm run cli -- listen`). A `ready` event first (`{ organizationId, design, types }`), then one `webhook` event per event, `data` `{ id, type, design, body }` with `body` the exact JSON text to sign and forward. Each message's `id` is the position after it: reconnect with the last one as `Last-Event-ID` (an event's id is taken too) to go on exactly there. At most 5 streams per API key at a time (429). Comment lines keep a quiet stream open; the server ends a stream after 10 minutes, or when the process shuts down (reconnect), and with an `error` event when the API key is revoked or expires. `test.webhook` is not streamed.",
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
      // Listening before the first await: a reader gone meanwhile must not leave a poll running.
      let open = true;
      res.on('close', () => (open = false));
      const holder = caller.kind === 'api_key' ? caller.apiKeyId : caller.memberSessionId;
      const held = openStreams.get(holder) ?? 0;
      if (held >= STREAMS_PER_CREDENTIAL) {
        throw new AppError(
          'RATE_LIMITED',
          `At most ${STREAMS_PER_CREDENTIAL} event streams per API key at a time: close one first.`,
          { openStreams: held },
          {
            'Retry-After': '10',
          },
        );
      }
      openStreams.set(holder, held + 1);
      try {
        await streamEvents(services, { req, res, caller, query, serving, isOpen: () => open });
      } finally {
        const left = (openStreams.get(holder) ?? 1) - 1;
        if (left > 0) openStreams.set(holder, left);
        else openStreams.delete(holder);
      }
    },
});

/** Open streams per API key (or member session) in this process: each polls the database every second. */
const openStreams = new Map<string, number>();

async function streamEvents(
  services: AppServices,
  {
    req,
    res,
    caller,
    query,
    serving,
    isOpen,
  }: { req: Request; res: Response; caller: CustomerAuth; query: TEventStreamQuery; serving: () => boolean; isOpen: () => boolean },
): Promise<void> {
  // The domain reads with the caller's organization only: another organization's events never reach this stream.
  const position = await startEventStream(services.orm.em.fork(), caller, req.get('Last-Event-ID')?.trim() || undefined);
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
  const write = (text: string) => {
    if (isOpen()) res.write(text);
  };
  // Every message's id is the position after it: a reconnect with it as `Last-Event-ID` goes on
  // exactly there, whether or not an event came first.
  const ready = { organizationId: caller.organizationId, design: query.design, types: query.types ?? null };
  write(`retry: 2000\n\nid: ${positionToken(position)}\nevent: ready\ndata: ${JSON.stringify(ready)}\n\n`);
  const endsAt = Date.now() + STREAM_LIFETIME_MS;
  const going = () => isOpen() && Date.now() < endsAt && serving();
  let quietSince = Date.now();
  let checkedAt = Date.now();
  // Ends when the process begins to shut down, so that shutdown does not wait out its grace
  // for this answer: the CLI reconnects (to another process, or to this one restarted).
  while (going()) {
    await new Promise((resolve) => setTimeout(resolve, EVENT_STREAM_POLL_MS).unref());
    // A reader that stopped reading is waited for (within the stream's life), not buffered for.
    if (!going() || res.writableNeedDrain) continue;
    if (Date.now() - checkedAt >= CREDENTIAL_CHECK_MS) {
      checkedAt = Date.now();
      const authorized = await streamCallerStillAuthorized(services.orm.em.fork(), caller).catch(() => true);
      if (!authorized) {
        write(`event: error\ndata: ${JSON.stringify({ code: 'INVALID_API_KEY', message: 'The API key was revoked or has expired.' })}\n\n`);
        break;
      }
    }
    try {
      const events = await pollEventStream({ em: services.orm.em.fork(), services }, caller, query, position);
      for (const { event, resumeToken } of events) write(`id: ${resumeToken}\nevent: webhook\ndata: ${JSON.stringify(event)}\n\n`);
      if (events.length > 0) quietSince = Date.now();
    } catch (error) {
      // The database away for a moment: the stream waits and reads on from where it was.
      services.logger.warn({ err: error, organizationId: caller.organizationId }, 'event stream poll failed; retrying');
    }
    if (Date.now() - quietSince >= KEEP_ALIVE_MS) {
      write(': keep-alive\n\n');
      quietSince = Date.now();
    }
  }
  if (isOpen()) res.end();
}

/**
 * Whether the stream's caller may still read it: an API key revoked or expired since the stream
 * opened ends it. A member's access token is checked when the stream opens only; it lives
 * minutes, and a stream ends after ten. (Asked here, at the edge, so the webhooks domain does not
 * depend on the api-keys one.)
 */
async function streamCallerStillAuthorized(em: EntityManager, caller: CustomerAuth): Promise<boolean> {
  if (caller.kind !== 'api_key') return true;
  return isApiKeyStillUsable({ em }, { apiKeyId: caller.apiKeyId, organizationId: caller.organizationId });
}
