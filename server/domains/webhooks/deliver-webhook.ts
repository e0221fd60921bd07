import type { EntityManager } from '@mikro-orm/postgresql';
import { deliveryHeaders, STANDARD_WEBHOOK_SECRET } from '../../../shared/webhook-signatures.js';
import type { TDeliveryAttempt, TWebhookDesign, TWebhookSignatureScheme } from '../../../shared/schemas/webhooks.js';
import type { Config } from '../../config.js';
import { type OutboundPolicy, OutboundFailedError, OutboundRefusedError, outboundRequest } from '../../lib/outbound-http.js';
import { ConcurrencyLimit } from '../../lib/concurrency-limit.js';
import type { Sealer } from '../../lib/sealer.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../platform/metrics.js';
import { crashIfEnabled } from '../../platform/test-faults.js';
import type { RowOf } from '../../db/query.js';
import { deliverWebhookJob, wakeDrains } from './delivery-jobs.js';
import { DELIVERY_SCHEDULES, maxAttemptsOf, nextAttemptAt } from './delivery-schedule.js';
import { eventLinks, type StoredEvent, webhookBody } from './event-payloads.js';
import { attemptContext, firstAttemptsDue, type RecordedAttempt, recordWebhookAttempts } from './queries.js';
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
type AttemptContext = Omit<RowOf<typeof attemptContext.columns>, 'design' | 'signature_scheme' | 'event_type' | 'facts'> & {
  design: TWebhookDesign;
  signature_scheme: TWebhookSignatureScheme;
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

/** One request of an attempt as signed: its signature headers and what signed it. */
interface SignedRequest {
  headers: Record<string, string>;
  signedWith: TDeliveryAttempt['signedWith'];
}

/**
 * The requests of an attempt. The designs' own signing: one per secret (two during Design B's
 * rotation overlap). Standard Webhooks: one, its header holding a signature per secret (a secret
 * made before it, still signing in an overlap, is left out: its libraries could not read it).
 */
function signedRequests(row: AttemptContext, body: string, secrets: ReturnType<typeof signingSecretsOf>): SignedRequest[] {
  const signing = { design: row.design, scheme: row.signature_scheme, eventId: row.event_id, eventType: row.event_type };
  if (row.signature_scheme === 'standard_webhooks') {
    const usable = secrets.filter((secret) => STANDARD_WEBHOOK_SECRET.test(secret.secret));
    if (usable.length === 0) throw new Error("The endpoint's secret is not in the Standard Webhooks format.");
    const headers = deliveryHeaders(
      body,
      signing,
      usable.map((secret) => secret.secret),
    );
    return [{ headers, signedWith: usable.length > 1 ? 'both' : usable[0]!.signedWith }];
  }
  return secrets.map((secret): SignedRequest => ({ headers: deliveryHeaders(body, signing, [secret.secret]), signedWith: secret.signedWith }));
}

/** One HTTP request of an attempt; never throws (every outcome is an attempt record). */
async function send(services: DeliveryServices, row: AttemptContext, body: string, signed: SignedRequest, number: number): Promise<Sent> {
  const at = new Date();
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, ...signed.headers };
  const base = { number, at: at.toISOString(), signedWith: signed.signedWith };
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
 * secret, unless the endpoint signs the Standard Webhooks way) sent side by side, so a slow
 * receiver holds the worker slot once, not twice.
 */
async function attemptRequests(services: DeliveryServices, row: AttemptContext, number: number, now: Date): Promise<Sent[]> {
  if (row.endpoint_status !== 'enabled') return [unsent(number, now, 'endpoint disabled')];
  let body: string;
  let requests: SignedRequest[];
  try {
    const event = { id: row.event_id, type: row.event_type, occurredAt: new Date(row.occurred_at), facts: row.facts } as StoredEvent;
    body = webhookBody(row.design, event, await eventLinks(services.signer, services.config.publicUrl, event, now));
    const secrets = signingSecretsOf(
      {
        design: row.design,
        signatureScheme: row.signature_scheme,
        sealedSecret: row.sealed_secret,
        sealedPreviousSecret: row.sealed_previous_secret,
        previousSecretExpiresAt: row.previous_secret_expires_at ? new Date(row.previous_secret_expires_at) : null,
      },
      services.webhookSecrets,
      now,
    );
    requests = signedRequests(row, body, secrets);
  } catch (error) {
    // A secret sealed under another SIGNING_SECRET cannot be opened: an attempt that fails like
    // any other (and says why), on the spec's schedule, never a job retried for ever.
    services.logger.warn({ err: error, deliveryId: row.id, endpointId: row.endpoint_id }, 'webhook attempt could not be prepared');
    return [unsent(number, now, "internal: the payload could not be signed (was SIGNING_SECRET changed? rotate the endpoint's secret)")];
  }
  return Promise.all(requests.map((request) => send(services, row, body, request, number)));
}

/** An attempt made: what its requests answered and what follows (the delivery's status, its next attempt). */
interface AttemptResult {
  row: AttemptContext;
  number: number;
  sent: Sent[];
  succeeded: boolean;
  gone: boolean;
  retryAt: Date | null;
  status: 'succeeded' | 'pending' | 'failed';
  finishedAt: Date;
}

function attemptResult(row: AttemptContext, number: number, sent: Sent[]): AttemptResult {
  const succeeded = sent.some((request) => request.succeeded);
  const gone = !succeeded && sent.some((request) => request.gone);
  const finishedAt = new Date();
  const retryAt = succeeded || gone || row.endpoint_status !== 'enabled' ? null : nextAttemptAt(row.design, number, finishedAt);
  const status = succeeded ? 'succeeded' : retryAt ? 'pending' : 'failed';
  return { row, number, sent, succeeded, gone, retryAt, status, finishedAt };
}

/** The attempt as recordWebhookAttempts writes it, with its retry's job. */
function toRecordedAttempt(result: AttemptResult): RecordedAttempt {
  const { row, number, sent, status, retryAt, gone } = result;
  return {
    deliveryId: row.id,
    number,
    attempts: sent.map((request) => request.attempt),
    status,
    retryAt,
    disableEndpoint: gone ? row.endpoint_id : null,
    nextJob: retryAt ? deliverWebhookJob(row.id, number + 1, retryAt) : null,
  };
}

/** Records attempts (one statement), each unless another run did; answers the ids recorded. */
async function recordAttempts(em: EntityManager, results: AttemptResult[]): Promise<Set<string>> {
  const rows = await recordWebhookAttempts.rows(em, { attempts: results.map(toRecordedAttempt) });
  return new Set(rows.map((row) => row.id));
}

/** An attempt recorded: its metrics and, for an endpoint gone or a delivery failed for good, a log line. */
function reportAttempt(services: DeliveryServices, result: AttemptResult): void {
  const { row, number, sent, succeeded, gone, retryAt, status, finishedAt } = result;
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
      { deliveryId: row.id, endpointId: row.endpoint_id, attempts: number, maxAttempts: maxAttemptsOf(row.design) },
      'webhook delivery failed for good',
    );
}

/**
 * `webhook__deliver`: one retry of one delivery (a first attempt's job, queued before drains,
 * wakes the endpoint's drain instead). It signs the event's payload for the endpoint's design
 * (twice, old and new secret, during Design B's rotation overlap), sends it, and records the
 * attempt; then either the delivery succeeded (any 2xx), or the next attempt is scheduled by the
 * spec's schedule, or it failed for good (attempts used up, or the endpoint answered 410 Gone,
 * which also disables the endpoint). The attempt is recorded and the next job added atomically, guarded by the attempt
 * number, so a job run again after a crash either makes the attempt again (nothing was
 * recorded: at least once) or does nothing.
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
  // A first attempt's job queued before drains: the endpoint's drain sends it, so no delivery is
  // sent by two at once.
  if (number === 1) return wakeDrains(em, [row.endpoint_id]);
  const sent = await attemptRequests(services, row, number, new Date());
  // Tests only: the process may die here, the request made and nothing recorded.
  crashIfEnabled(services.config, 'webhook:after-request');
  const result = attemptResult(row, number, sent);
  if ((await recordAttempts(em, [result])).has(row.id)) reportAttempt(services, result);
}

/** First attempts read and recorded together: one statement each way for this many deliveries. */
const DRAIN_BATCH = 50;
/**
 * Requests in flight to the endpoint at once during a drain: a backlog goes out in parallel over
 * the pooled connections (fewer than the agent keeps free), without flooding the receiver.
 */
const DRAIN_LANES = 8;
/** A drain with more to send yields its worker slot after this long: the next drain takes over. */
const DRAIN_BUDGET_MS = 5_000;

/**
 * `webhook__drain`: an endpoint's first attempts, oldest first, in batches: each batch of
 * deliveries read in one statement, sent over up to DRAIN_LANES requests at a time, and recorded
 * in one statement with each retry's job (retries then go one delivery per job, on the spec's
 * schedule: `deliverWebhook`). A backlog (a burst of completions, a receiver back after an
 * outage) costs two statements and one job per batch instead of four statements per delivery.
 *
 * One drain of an endpoint runs at a time (its queue), so no delivery is sent by two; a crash
 * after sending and before recording sends the batch again when the job runs again (at least
 * once, like a retry). No caller: the job names an endpoint, whose deliveries' rows say their
 * organization.
 */
export async function drainWebhookEndpoint(
  { em, services }: { em: EntityManager; services: DeliveryServices },
  input: { endpointId: string },
  /**
   * The worker stopping: the drain begins no more requests and queues its successor, so a runner
   * replaced after a database outage drains beside the new one only with the requests in flight.
   */
  stopping?: AbortSignal,
): Promise<void> {
  const started = performance.now();
  for (;;) {
    const rows = (await firstAttemptsDue.rows(em, { endpointId: input.endpointId, limit: DRAIN_BATCH })) as AttemptContext[];
    if (rows.length === 0) return;
    const lanes = new ConcurrencyLimit(DRAIN_LANES);
    // Once the worker stops, deliveries not yet begun are left to the drain that follows.
    const made = await Promise.all(
      rows.map((row) => lanes.run(async () => (stopping?.aborted ? null : attemptResult(row, 1, await attemptRequests(services, row, 1, new Date()))))),
    );
    const results = made.filter((result) => result !== null);
    // Tests only: the process may die here, the requests made and nothing recorded.
    crashIfEnabled(services.config, 'webhook:after-request');
    const recorded = results.length > 0 ? await recordAttempts(em, results) : new Set<string>();
    for (const result of results) if (recorded.has(result.row.id)) reportAttempt(services, result);
    const more = rows.length === DRAIN_BATCH || results.length < rows.length;
    if (!more) return;
    if (stopping?.aborted || performance.now() - started > DRAIN_BUDGET_MS) {
      // Queued behind this one (same key and queue): it goes on with what is left.
      await wakeDrains(em, [input.endpointId]);
      return;
    }
  }
}
