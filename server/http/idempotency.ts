import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors.js';
import type { Sealer } from '../lib/sealer.js';
import type { Logger } from '../logger.js';
import type { Config } from '../config.js';
import { type DescribedError, describeError } from './error-envelope.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_LOCK_SECONDS,
  type IdempotencyClaim,
  settleIdempotencyKey,
  type StoredResponse,
} from '../platform/idempotency-store.js';
import { crashIfEnabled } from '../platform/test-faults.js';

/**
 * `Idempotency-Key` on REST POSTs, the HTTP side: reading the header, what makes two requests
 * the same, replaying a stored answer (`Idempotent-Replayed: true`). The claim and the stored
 * outcomes live in `server/platform/idempotency-store.ts`.
 */
const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** RFC 9110 visible characters (VCHAR, `!` to `~`): no spaces, no control or non-ASCII characters. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** The request's key, or undefined without one; 400 INVALID_REQUEST when it is empty, too long or not visible ASCII. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (key === undefined) return undefined;
  const value = Array.isArray(key) ? key.join(', ') : key;
  let problem: string | undefined;
  if (value.length === 0) problem = 'must not be empty';
  else if (value.length > IDEMPOTENCY_KEY_MAX_LENGTH) problem = `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`;
  else if (!VISIBLE_ASCII.test(value)) problem = 'must be visible ASCII characters without spaces';
  if (problem) {
    throw new AppError('INVALID_REQUEST', `The ${IDEMPOTENCY_KEY_HEADER} header ${problem}.`, {
      fields: [{ path: IDEMPOTENCY_KEY_HEADER, message: problem }],
    });
  }
  return value;
}

/**
 * The stored key: the organization's own keys as given; a participant's are kept apart per
 * invite, so two participants' clients that happen to pick the same key never meet.
 */
export function idempotencyScope(auth: { kind: string; inviteId?: string }, key: string): string {
  // A space cannot appear in a key a client sends (visible ASCII only), so the two never collide.
  return auth.kind === 'participant' ? `invite ${auth.inviteId} ${key}` : key;
}

/** JSON with object keys sorted at every level: the same data always gives the same text. */
function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => stableStringify(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${stableStringify(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What makes two requests "the same": method, path and canonical body. For JSON the parsed body
 * (key order and whitespace do not matter); for a multipart upload its fields plus the file's SHA-256.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${path}\n${stableStringify(body)}`)
    .digest('hex');
}

/**
 * The stored form of a JSON response: its status, exact body text, `Content-Type`, and a
 * `Location` and a created record's `ETag` set by the handler (on `res`) or carried by an error
 * (`extraHeaders`). Nothing else: rate-limit headers describe each request, not the first one.
 */
function jsonResponseToStore(res: Response, status: number, body: string | null, extraHeaders: Record<string, string> = {}): StoredResponse {
  const headers: Record<string, string> = {};
  if (body !== null) headers['Content-Type'] = JSON_CONTENT_TYPE;
  const location = extraHeaders.Location ?? res.getHeader('Location');
  if (location !== undefined) headers.Location = String(location);
  // A created record's version (the REST adapter's strong tag), so a replay can be sent on to If-Match.
  const etag = extraHeaders.ETag ?? res.getHeader('ETag');
  if (etag !== undefined) headers.ETag = String(etag);
  return { status, headers, body };
}

/**
 * `Idempotency-Key` where it is not honoured (it is on REST POSTs): 400 naming the header, since
 * ignoring a header the caller relies on to avoid doing work twice would be worse. On PATCH and
 * DELETE sending the same request again is the retry; `/trpc` has no stored answers.
 */
export function refuseUnhonouredIdempotencyKey(req: Request, _res: Response, next: NextFunction): void {
  if (req.get(IDEMPOTENCY_KEY_HEADER) === undefined) return next();
  // /trpc and /mcp replay nothing from it: a retried call there would run again, so the header is refused rather than ignored.
  if (req.baseUrl === '/trpc' || req.baseUrl === '/mcp') {
    return next(
      new AppError('INVALID_REQUEST', `Idempotency-Key is honoured on the REST API (/v1, /api), not on ${req.baseUrl}.`, {
        fields: [{ path: IDEMPOTENCY_KEY_HEADER, message: `is not supported on ${req.baseUrl}` }],
      }),
    );
  }
  if (req.method !== 'PATCH' && req.method !== 'DELETE' && req.method !== 'PUT') return next();
  next(
    new AppError('INVALID_REQUEST', `Idempotency-Key is honoured on POST; ${req.method} is not replayed from it (send the same ${req.method} again instead).`, {
      fields: [{ path: IDEMPOTENCY_KEY_HEADER, message: `is not supported on ${req.method}` }],
    }),
  );
}

/** Sends a stored response again, marked `Idempotent-Replayed: true`. */
function replayResponse(res: Response, stored: StoredResponse): void {
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.status(stored.status);
  if (stored.body === null) res.end();
  else res.send(stored.body);
}

/** Claims the key for this request, or sends its stored answer (`'replayed'`: the request is done). */
async function claimOrReplay(
  em: EntityManager,
  res: Response,
  input: { organizationId: string; key: string; requestHash: string; sealer: Sealer },
): Promise<IdempotencyClaim | 'replayed'> {
  const outcome = await claimIdempotencyKey(em, { ...input, lockSeconds: IDEMPOTENCY_LOCK_SECONDS });
  if ('claimed' in outcome) return outcome.claimed;
  replayResponse(res, outcome.replay);
  return 'replayed';
}

/** What an operation answers: its status and the body to send as JSON (nothing for 204). */
export interface JsonAnswer {
  status: number;
  body: unknown;
  /** Headers the answer is stored with (Location), whether or not they could still be sent. */
  headers?: Record<string, string>;
}

/** An answer as it is sent (and stored): its status and exact JSON text, null for 204. */
export interface JsonText {
  status: number;
  json: string | null;
}

/**
 * Runs the operation of a claimed key in one transaction that also stores its answer
 * (`completeIdempotencyKey`): the work and the stored answer commit together, so a crash at any
 * point either leaves nothing done (the retry runs it, once the claim has lapsed) or leaves both
 * (the retry replays).
 */
async function runWithClaim(
  em: EntityManager,
  claim: IdempotencyClaim,
  res: Response,
  config: Pick<Config, 'testFaults'>,
  operation: (tx: EntityManager) => Promise<JsonAnswer>,
): Promise<JsonText> {
  const outcome = await em.transactional(async (tx) => {
    const { status, body, headers } = await operation(tx);
    const json = status === 204 ? null : JSON.stringify(body);
    await completeIdempotencyKey(tx, claim, jsonResponseToStore(res, status, json, headers));
    crashIfEnabled(config, 'idempotency:before-commit');
    return { status, json };
  });
  crashIfEnabled(config, 'idempotency:after-commit');
  return outcome;
}

/**
 * Slow work an operation can do before its transaction (storing and transcribing audio, asking
 * an LLM): run with no transaction open, so a keyed request holds no connection meanwhile, and
 * undone (`discard`) when the operation does not commit.
 */
export interface Preparation<P> {
  prepare: (em: EntityManager) => Promise<P>;
  discard?: (prepared: P) => Promise<void>;
}

/** Where the operation runs: the claimed key's transaction, or (no key) a unit of work of its own. */
export interface IdempotentUnit {
  em: EntityManager;
  /** True inside the transaction that also stores the answer of a claimed key. */
  claimed: boolean;
}

/**
 * The one way a POST honours `Idempotency-Key` (the REST adapter's procedures and the stream
 * operations alike). With a key: claimed, or its stored answer replayed (then undefined: the
 * request is answered); the operation run in the transaction that stores its answer; a refusal
 * stored (or the key released) as `describe` answers it, then thrown on. Without one the
 * operation simply runs. The caller sends the answer returned.
 */
export async function answerIdempotently<P = undefined>(
  req: Request,
  res: Response,
  scope: { auth: { kind: string; organizationId: string; inviteId?: string } | null | undefined; operation: string; fingerprint: unknown },
  services: { orm: { em: { fork(): EntityManager } }; sealer: Sealer; config: Pick<Config, 'testFaults'>; logger: Logger },
  operation: (unit: IdempotentUnit, prepared: P) => Promise<JsonAnswer>,
  options: { preparation?: Preparation<P>; describe?: (error: unknown) => DescribedError } = {},
): Promise<JsonText | undefined> {
  const { preparation, describe = describeError } = options;
  const key = req.method === 'POST' ? idempotencyKeyOf(req) : undefined;
  const em = services.orm.em.fork();
  let prepared: P | undefined;
  const discard = async () => {
    if (prepared !== undefined) await preparation?.discard?.(prepared);
  };
  if (!key || !scope.auth) {
    prepared = preparation ? await preparation.prepare(em) : (undefined as P);
    try {
      const { status, body } = await operation({ em, claimed: false }, prepared as P);
      return { status, json: status === 204 ? null : JSON.stringify(body) };
    } catch (error) {
      await discard();
      throw error;
    }
  }
  const claim = await claimOrReplay(em, res, {
    organizationId: scope.auth.organizationId,
    key: idempotencyScope(scope.auth, key),
    requestHash: requestFingerprint(req.method, scope.operation, scope.fingerprint),
    sealer: services.sealer,
  });
  if (claim === 'replayed') return undefined;
  try {
    prepared = preparation ? await preparation.prepare(services.orm.em.fork()) : (undefined as P);
    return await runWithClaim(em, claim, res, services.config, (tx) => operation({ em: tx, claimed: true }, prepared as P));
  } catch (error) {
    await discard();
    await settleWithAnswer(em, claim, res, describe(error), services.logger);
    throw error;
  }
}

/** Sends an answer of `answerIdempotently` (nothing once the request timeout has answered 503). */
export function sendJsonAnswer(res: Response, answer: JsonText | undefined): void {
  if (!answer || res.headersSent) return;
  if (answer.json === null) res.status(answer.status).end();
  else res.status(answer.status).type('application/json').send(answer.json);
}

/**
 * A refusal of the operation (its transaction rolled back): stores (or, for outcomes not kept,
 * releases) the error answer about to be sent: a success body, or
 * an error envelope with its headers. Never fails the response: the handler's work is done (or
 * undone) either way, and an unsettled claim frees itself when its lock lapses.
 */
async function settleWithAnswer(
  em: EntityManager,
  claim: IdempotencyClaim,
  res: Response,
  answer: { status: number; body: unknown; headers?: Record<string, string> },
  logger: Logger,
): Promise<void> {
  const body = answer.status === 204 ? null : JSON.stringify(answer.body);
  try {
    await settleIdempotencyKey(em, claim, jsonResponseToStore(res, answer.status, body, answer.headers));
  } catch (error) {
    logger.error({ err: error, status: answer.status }, 'could not settle idempotency key');
  }
}
