import type { EntityManager } from '@mikro-orm/postgresql';
import {
  DESIGN_A_SIGNATURE_HEADER,
  DESIGN_B_SIGNATURE_HEADER,
  DESIGN_B_TIMESTAMP_HEADER,
  signWebhookA,
  signWebhookB,
} from '../../../shared/webhook-signatures.js';
import type { TDeliveryAttempt, TWebhookDesign } from '../../../shared/schemas/webhooks.js';
import type { Config } from '../../config.js';
import { type OutboundPolicy, OutboundFailedError, OutboundRefusedError, outboundRequest } from '../../lib/outbound-http.js';
import type { Sealer } from '../../lib/sealer.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../platform/metrics.js';
import { crashIfEnabled } from '../../platform/test-faults.js';
import type { RowOf } from '../../db/query.js';
import { deliverWebhookJob } from './delivery-jobs.js';
import { DELIVERY_SCHEDULES, maxAttemptsOf, nextAttemptAt } from './delivery-schedule.js';
import { eventLinks, type StoredEvent, webhookBody } from './event-payloads.js';
import { attemptContext, recordWebhookAttempt } from './queries.js';
import { signingSecretsOf } from './webhook-secrets.js';

/** What User-Agent deliveries carry: the spec's `<product>-Webhook/1.0`. */
const WEBHOOK_USER_AGENT = 'Interview-Webhook/1.0';
/** Enough of a receiver's answer to tell what it said, not a whole page. */
const RESPONSE_BODY_CHARS = 1024;

/**
 * A receiver's answer as text the attempt record can always hold: PostgreSQL's jsonb takes no
 * NUL and no broken surrogate pair (a binary or gzip body, an emoji cut at the limit), and an
 * attempt that cannot be recorded would be sent again for ever.
 */
function storableText(body: Buffer): string | null {
  const text = [...body.toString('utf8').replace(/\u0000/g, '\uFFFD')].slice(0, RESPONSE_BODY_CHARS).join('').toWellFormed();
  return text === '' ? null : text;
}

export interface DeliveryServices {
  signer: UrlSigner;
  webhookSecrets: Sealer;
  outboundPolicy: OutboundPolicy;
  metrics: Metrics;
  logger: Pick<Logger, 'warn' | 'info'>;
  config: Pick<Config, 'publicUrl' | 'testFaults'>;
}

/** What one attempt reads: the delivery, its endpoint and its event, in one query. */
type AttemptContext = Omit<RowOf<typeof attemptContext.columns>, 'design' | 'event_type' | 'facts'> & {
  design: TWebhookDesign;
  event_type: StoredEvent['type'];
  facts: StoredEvent['facts'];
};

interface Sent {
  attempt: TDeliveryAttempt;
  succeeded: boolean;
  gone: boolean;
  /** False for an attempt that sent nothing (a disabled endpoint, a payload that could not be signed). */
  reachedOut: boolean;
}

/** One HTTP request of an attempt; never throws (every outcome is an attempt record). */
async function send(
  services: DeliveryServices,
  row: AttemptContext,
  body: string,
  secret: { secret: string; signedWith: 'current' | 'previous' },
  number: number,
): Promise<Sent> {
  const at = new Date();
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT };
  if (row.design === 'A') {
    headers[DESIGN_A_SIGNATURE_HEADER] = signWebhookA(body, secret.secret);
    headers['x-webhook-event'] = row.event_type;
  } else {
    const timestamp = Date.now();
    headers[DESIGN_B_TIMESTAMP_HEADER] = String(timestamp);
    headers[DESIGN_B_SIGNATURE_HEADER] = signWebhookB(body, timestamp, secret.secret);
  }
  const base = { number, at: at.toISOString(), signedWith: secret.signedWith };
  try {
    const response = await outboundRequest({
      url: row.url,
      method: 'POST',
      headers,
      body,
      timeoutMs: DELIVERY_SCHEDULES[row.design].deadlineMs,
      maxResponseBytes: RESPONSE_BODY_CHARS * 4,
      policy: services.outboundPolicy,
    });
    const succeeded = response.status >= 200 && response.status < 300;
    const error = succeeded ? null : response.status >= 300 && response.status < 400 ? `redirect ${response.status} (not followed)` : `HTTP ${response.status}`;
    return {
      attempt: { ...base, statusCode: response.status, durationMs: Math.round(response.durationMs), error, responseBody: storableText(response.body) },
      succeeded,
      gone: response.status === 410,
      reachedOut: true,
    };
  } catch (error) {
    const known = error instanceof OutboundRefusedError || error instanceof OutboundFailedError;
    if (!known) services.logger.warn({ err: error, deliveryId: row.id }, 'webhook attempt failed unexpectedly');
    return {
      attempt: {
        ...base,
        statusCode: null,
        durationMs: Date.now() - at.getTime(),
        error: known ? `${error.reason}: ${error.message}` : 'unexpected error',
        responseBody: null,
      },
      succeeded: false,
      gone: false,
      reachedOut: true,
    };
  }
}

/** An attempt that sent nothing, and why. */
function unsent(number: number, at: Date, error: string): Sent {
  return {
    attempt: { number, at: at.toISOString(), statusCode: null, durationMs: 0, error, responseBody: null, signedWith: 'current' },
    succeeded: false,
    gone: false,
    reachedOut: false,
  };
}

/**
 * The requests of one attempt: one, or during Design B's rotation overlap two (old and new
 * secret) sent side by side, so a slow receiver holds the worker slot once, not twice.
 */
async function attemptRequests(services: DeliveryServices, row: AttemptContext, number: number, now: Date): Promise<Sent[]> {
  if (row.endpoint_status !== 'enabled') return [unsent(number, now, 'endpoint disabled')];
  let body: string;
  let secrets: ReturnType<typeof signingSecretsOf>;
  try {
    const event = { id: row.event_id, type: row.event_type, occurredAt: new Date(row.occurred_at), facts: row.facts } as StoredEvent;
    body = webhookBody(row.design, event, await eventLinks(services.signer, services.config.publicUrl, event, now));
    secrets = signingSecretsOf(
      {
        design: row.design,
        sealedSecret: row.sealed_secret,
        sealedPreviousSecret: row.sealed_previous_secret,
        previousSecretExpiresAt: row.previous_secret_expires_at ? new Date(row.previous_secret_expires_at) : null,
      },
      services.webhookSecrets,
      now,
    );
  } catch (error) {
    // A secret sealed under another SIGNING_SECRET cannot be opened: an attempt that fails like
    // any other (and says why), on the spec's schedule, never a job retried for ever.
    services.logger.warn({ err: error, deliveryId: row.id, endpointId: row.endpoint_id }, 'webhook attempt could not be prepared');
    return [unsent(number, now, "internal: the payload could not be signed (was SIGNING_SECRET changed? rotate the endpoint's secret)")];
  }
  return Promise.all(secrets.map((secret) => send(services, row, body, secret, number)));
}

/**
 * `webhook__deliver`: one attempt of one delivery. It signs the event's payload for the endpoint's
 * design (twice, old and new secret, during Design B's rotation overlap), sends it, and records the
 * attempt; then either the delivery succeeded (any 2xx), or the next attempt is scheduled by the
 * spec's schedule, or it failed for good (attempts used up, or the endpoint answered 410 Gone,
 * which also disables the endpoint). The attempt is recorded and the next job added atomically,
 * guarded by the attempt number, so a job run again after a crash either makes the attempt again
 * (nothing was recorded: at least once) or does nothing.
 *
 * No caller: the job names a delivery, whose row says its organization (its payload carries no
 * organization id, and jobs already queued must keep working).
 */
export async function deliverWebhook(
  { em, services }: { em: EntityManager; services: DeliveryServices },
  input: { deliveryId: string; attempt: number },
): Promise<void> {
  const { deliveryId, attempt: number } = input;
  const row = (await attemptContext.first(em, { deliveryId })) as AttemptContext | undefined;
  // Gone (its endpoint deleted), finished, or past this attempt already.
  if (!row || row.status !== 'pending' || row.attempt_count !== number - 1) return;
  const sent = await attemptRequests(services, row, number, new Date());
  // Tests only: the process may die here, the request made and nothing recorded.
  crashIfEnabled(services.config, 'webhook:after-request');

  const succeeded = sent.some((request) => request.succeeded);
  const gone = !succeeded && sent.some((request) => request.gone);
  const finishedAt = new Date();
  const retryAt = succeeded || gone || row.endpoint_status !== 'enabled' ? null : nextAttemptAt(row.design, number, finishedAt);
  const status = succeeded ? 'succeeded' : retryAt ? 'pending' : 'failed';
  const recorded = await recordAttempt(em, { deliveryId, number, sent, status, retryAt, disableEndpoint: gone ? row.endpoint_id : null });
  if (!recorded) return;

  const outcome = succeeded ? 'succeeded' : gone ? 'gone' : retryAt ? 'retrying' : 'failed';
  services.metrics.webhookDeliveries.inc({ design: row.design, event: row.event_type, outcome });
  for (const request of sent)
    if (request.reachedOut) services.metrics.webhookAttemptDuration.observe({ design: row.design }, request.attempt.durationMs / 1000);
  // Event to delivery: what a receiver waits. A redelivery or a test event would measure an operator's click.
  if (succeeded && !row.redelivery_of && row.event_type !== 'test.webhook') {
    services.metrics.webhookLatency.observe({ design: row.design }, (finishedAt.getTime() - new Date(row.occurred_at).getTime()) / 1000);
  }
  if (gone) services.logger.info({ endpointId: row.endpoint_id }, 'webhook endpoint answered 410 Gone: disabled');
  if (status === 'failed')
    services.logger.warn(
      { deliveryId, endpointId: row.endpoint_id, attempts: number, maxAttempts: maxAttemptsOf(row.design) },
      'webhook delivery failed for good',
    );
}

/** Records the attempt unless another run did (recordWebhookAttempt). False: already recorded. */
async function recordAttempt(
  em: EntityManager,
  attempt: { deliveryId: string; number: number; sent: Sent[]; status: string; retryAt: Date | null; disableEndpoint: string | null },
): Promise<boolean> {
  const rows = await recordWebhookAttempt.rows(em, {
    deliveryId: attempt.deliveryId,
    number: attempt.number,
    attempts: attempt.sent.map((request) => request.attempt),
    status: attempt.status,
    retryAt: attempt.retryAt,
    disableEndpoint: attempt.disableEndpoint,
    nextJob: attempt.retryAt ? deliverWebhookJob(attempt.deliveryId, attempt.number + 1, attempt.retryAt) : null,
  });
  return rows.length > 0;
}
