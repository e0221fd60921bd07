import { initTRPC } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ErrorCode } from '../../shared/error-codes.js';
import type { PermissionRequirement } from '../../shared/permissions.js';
import { AppError } from '../errors.js';
import { describeError } from '../http/error-envelope.js';
import { findUnstorableText } from '../lib/text-safety.js';
import type { ParticipantAuth, RequestAuth } from '../domains/common/caller.js';
import { invalidInviteToken } from '../domains/sessions/participant-access.js';
import { assertPermission, type Context } from './context.js';

/**
 * Procedure metadata: the REST route (trpc-to-openapi), the permission the caller needs, the
 * success status when it is not 200, and the domain errors the operation can raise beyond the
 * common ones (for the OpenAPI document).
 */
/**
 * What a participant API operation requires instead of a permission: the participant's invite
 * token, and nothing else (an API key is refused).
 */
export const INVITE_TOKEN = 'invite token';

export type AppMeta = OpenApiMeta & {
  permission?: PermissionRequirement | typeof INVITE_TOKEN;
  /** Also open to the participant's invite token, for their own session (design.md "Participant API"). */
  participant?: boolean;
  successStatus?: 201 | 204;
  errors?: ErrorCode[];
  /** On 201: where the created record is read, `{field}`s filled from the answer (the `Location` header). */
  location?: string;
  /** Only a signed-in member may call it (managing API keys: a key must not mint keys). */
  membersOnly?: boolean;
  /** Open without credentials (sign-in, refresh, accepting an invitation); `publicProcedure` sets it. */
  public?: boolean;
};

/** tRPC's own code for each status we answer, so `/trpc` clients see the kind of error too. */
const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  // tRPC has no code of its own for 410; the status (and `appCode`) still say gone.
  410: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** tRPC's name for an HTTP status we answer (INTERNAL_SERVER_ERROR for any other). */
export function trpcCodeFor(status: number): TRPC_ERROR_CODE_KEY {
  return TRPC_CODE_BY_STATUS[status] ?? 'INTERNAL_SERVER_ERROR';
}

const t = initTRPC
  .context<Context>()
  .meta<AppMeta>()
  .create({
    // The tRPC edge of AppError: `/trpc` clients get the same code, message, details and HTTP
    // status as REST clients (tRPC takes the status from `data.httpStatus`), and never a stack.
    errorFormatter({ shape, error, input }) {
      const described = describeError(error, { rawInput: input, source: 'body' });
      const { stack: _stack, ...data } = shape.data;
      const code = trpcCodeFor(described.status);
      return {
        ...shape,
        code: TRPC_ERROR_CODES_BY_KEY[code],
        message: described.body.error.message,
        data: {
          ...data,
          code,
          httpStatus: described.status,
          appCode: described.body.error.code,
          details: described.body.error.details,
          requestId: described.body.error.requestId,
        },
      };
    },
  });

export const router = t.router;
/** Several domains' procedures under one name (a tRPC path clients already call). */
export const mergeRouters = t.mergeRouters;
/** Calls procedures in-process with a request's context (the MCP server's tools: server/mcp). */
export const createCallerFactory = t.createCallerFactory;

/**
 * Every API operation: requires an authenticated caller holding the permission named in the
 * procedure's meta. A procedure without a permission is refused at startup (see
 * `assertEveryProcedureHasPermission`, run by createApp), so an operation cannot be left open by omission.
 */
export const apiProcedure = t.procedure.use(async ({ ctx, meta, next, getRawInput }) => {
  const permission = meta?.permission;
  if (!permission) throw new AppError('INTERNAL_ERROR', 'Operation has no permission configured.');
  const auth =
    permission === INVITE_TOKEN
      ? participantOf(ctx.auth)
      : ctx.auth?.kind === 'participant' && meta?.participant
        ? ctx.auth
        : assertPermission(ctx.auth, permission);
  if (meta?.membersOnly && auth.kind !== 'member') {
    throw new AppError('INSUFFICIENT_PERMISSIONS', 'Only a signed-in member can do this; an API key cannot manage API keys.', { required: 'member' });
  }
  if (ctx.via === 'trpc') {
    // The REST adapter refuses these already, with a status that depends on where they came from.
    const unstorable = findUnstorableText(await getRawInput());
    if (unstorable) throw new AppError('VALIDATION_ERROR', `${unstorable.path} ${unstorable.message}.`, { fields: [unstorable] });
  }
  return next({ ctx: { ...ctx, auth, em: ctx.transaction ?? ctx.services.orm.em.fork() } });
});

/** The participant API's caller: the invite token is the credential there, never an API key. */
export function participantOf(auth: RequestAuth | null | undefined): ParticipantAuth {
  if (auth?.kind !== 'participant') throw invalidInviteToken('Send the invite token as "Authorization: Bearer <invite token>".');
  return auth;
}

/** An operation of the participant API (`permission: INVITE_TOKEN`): `ctx.auth` is the participant. */
export const participantProcedure = apiProcedure.use(({ ctx, next }) => next({ ctx: { ...ctx, auth: participantOf(ctx.auth) } }));

/**
 * An operation of a customer's caller (API key or member), never a participant's: `ctx.auth`
 * carries the caller's permissions.
 */
export const customerProcedure = apiProcedure.use(({ ctx, next }) => {
  const auth = ctx.auth;
  if (auth.kind === 'participant') throw new AppError('INVALID_API_KEY', 'This operation needs an API key; an invite token only acts on its own interview.');
  return next({ ctx: { ...ctx, auth } });
});

/**
 * Open to anyone (sign-in, refresh, accepting an invitation), which must say so in its meta
 * (`public: true`); the authentication middleware lets a call through without credentials only
 * when every procedure of its batch is one of these (`PUBLIC_PROCEDURES`).
 */
export const publicProcedure = t.procedure.use(async ({ ctx, meta, next, getRawInput }) => {
  if (!meta?.public) throw new AppError('INTERNAL_ERROR', 'Operation is not marked public.');
  const unstorable = findUnstorableText(await getRawInput());
  if (unstorable) throw new AppError('VALIDATION_ERROR', `${unstorable.path} ${unstorable.message}.`, { fields: [unstorable] });
  return next({ ctx: { ...ctx, em: ctx.services.orm.em.fork() } });
});

/** Refuses to start with a procedure that declares no permission, so none is left open by omission. */
export function assertEveryProcedureHasPermission(appRouter: { _def: { procedures: Record<string, unknown> } }): void {
  const missing = Object.entries(appRouter._def.procedures)
    .filter(([, procedure]) => {
      const meta = (procedure as { _def: { meta?: AppMeta } })._def.meta;
      return !meta?.permission && !meta?.public;
    })
    .map(([path]) => path);
  if (missing.length > 0) throw new Error(`Procedures without a permission: ${missing.join(', ')}`);
}

/** The procedures marked `public` (by dotted path), for the authentication middleware. */
export function publicProcedureNames(appRouter: { _def: { procedures: Record<string, unknown> } }): ReadonlySet<string> {
  return new Set(
    Object.entries(appRouter._def.procedures)
      .filter(([, procedure]) => (procedure as { _def: { meta?: AppMeta } })._def.meta?.public)
      .map(([path]) => path),
  );
}
