import {
  ZConsentInput,
  ZListSessionsInput,
  ZPauseSessionInput,
  ZSession,
  ZListSessionFilesInput,
  ZSessionFilePage,
  ZSessionIdInput,
  ZSessionPage,
  ZSessionView,
} from '../../../shared/schemas/sessions.js';
import { type AppMeta, apiProcedure, router } from '../../trpc/trpc.js';
import { ZInvite, ZInviteIdInput } from '../../../shared/schemas/invites.js';
import { cancelInvite } from './cancel-invite.js';
import { consentSession } from './consent-session.js';
import { getSession } from './get-session.js';
import { heartbeatSession } from './heartbeat-session.js';
import { listSessionFiles } from './list-session-files.js';
import { listSessions } from './list-sessions.js';
import { pauseSession } from './pause-session.js';
import { resumeSession } from './resume-session.js';

const tags = ['Sessions'];

/** The lifecycle actions take an API key (`sessions:write`) or the session's own invite token. */
const lifecycle: Pick<AppMeta, 'permission' | 'participant' | 'errors'> = { permission: 'sessions:write', participant: true, errors: ['SESSION_NOT_ACTIVE'] };

const listFilesProcedure = (path: '/v1/sessions/{sessionId}/files' | '/api/session/{sessionId}/files') =>
  apiProcedure
    .meta({
      openapi: {
        method: 'GET',
        path,
        tags,
        summary: "List a session's files",
        description: 'Answer audio, uploads (and later merged audio and exports), oldest first, each with a signed download link valid 1 hour.',
      },
      permission: 'sessions:read',
    })
    .input(ZListSessionFilesInput)
    .output(ZSessionFilePage)
    .query(({ ctx, input }) => listSessionFiles(ctx.em, ctx.services.signer, ctx.auth.organizationId, input));

export const sessionsRouter = router({
  get: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/sessions/{sessionId}', tags, summary: 'Get a session' }, permission: 'sessions:read' })
    .input(ZSessionIdInput)
    .output(ZSession)
    .query(({ ctx, input }) => getSession(ctx.em, ctx.auth.organizationId, input.sessionId)),

  list: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/v1/campaigns/{campaignId}/sessions', tags, summary: "List a campaign's sessions" },
      permission: 'sessions:read',
    })
    .input(ZListSessionsInput)
    .output(ZSessionPage)
    .query(({ ctx, input }) => listSessions(ctx.em, ctx.auth.organizationId, input)),

  pause: apiProcedure
    .meta({ openapi: { method: 'POST', path: '/v1/sessions/{sessionId}/pause', tags, summary: 'Pause a session in progress' }, ...lifecycle })
    .input(ZPauseSessionInput)
    .output(ZSessionView)
    .mutation(({ ctx, input }) => pauseSession(ctx.em, ctx.services.config, ctx.auth, input.sessionId, input.reason)),

  resume: apiProcedure
    .meta({ openapi: { method: 'POST', path: '/v1/sessions/{sessionId}/resume', tags, summary: 'Resume a paused session' }, ...lifecycle })
    .input(ZSessionIdInput)
    .output(ZSessionView)
    .mutation(({ ctx, input }) => resumeSession(ctx.em, ctx.services.config, ctx.auth, input.sessionId)),

  heartbeat: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/v1/sessions/{sessionId}/heartbeat',
        tags,
        summary: 'Keep a session alive',
        description: `An unfinished session without a heartbeat or answer for SESSION_ABANDON_AFTER seconds (default 600) is abandoned.`,
      },
      ...lifecycle,
    })
    .input(ZSessionIdInput)
    .output(ZSessionView)
    .mutation(({ ctx, input }) => heartbeatSession(ctx.em, ctx.auth, input.sessionId)),

  consent: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/v1/sessions/{sessionId}/consent',
        tags,
        summary: "Record the participant's consent",
        description:
          'Granted on a session waiting for it: the interview begins (its first question is asked). Refused: the session is abandoned. `ip` defaults to the caller\'s address.',
      },
      ...lifecycle,
    })
    .input(ZConsentInput)
    .output(ZSessionView)
    .mutation(({ ctx, input }) => consentSession(ctx.em, ctx.services.config, ctx.auth, { ...input, ip: input.ip ?? ctx.req.ip ?? null })),

  listFiles: listFilesProcedure('/v1/sessions/{sessionId}/files'),
  /** The spec's `/api/session/{sessionId}/files`: the same operation under `/api`. */
  listFilesUnderApiPrefix: listFilesProcedure('/api/session/{sessionId}/files'),
});

/**
 * Mounted under `invites` by server/trpc/app-router.ts (the procedure is `invites.cancel`): cancelling
 * an invite abandons its unfinished interview, so the operation lives with sessions.
 */
export const inviteCancelRouter = router({
  cancel: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/v1/invites/{inviteId}/cancel',
        tags: ['Invites'],
        summary: 'Cancel an invite',
        description: 'Revokes the token. Pending or started invites can be cancelled.',
      },
      permission: 'invites:write',
      errors: ['INVITE_EXPIRED', 'INVITE_ALREADY_USED'],
    })
    .input(ZInviteIdInput)
    .output(ZInvite)
    .mutation(({ ctx, input }) => cancelInvite(ctx, ctx.auth, input)),
});
