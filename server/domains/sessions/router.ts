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
    .query(({ ctx, input }) => listSessionFiles(ctx, ctx.auth, input));

export const sessionsRouter = router({
  get: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/sessions/{sessionId}', tags, summary: 'Get a session' }, permission: 'sessions:read' })
    .input(ZSessionIdInput)
    .output(ZSession)
    .query(({ ctx, input }) => getSession(ctx, ctx.auth, input)),

  list: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/v1/campaigns/{campaignId}/sessions', tags, summary: "List a campaign's sessions" },
      permission: 'sessions:read',
    })
    .input(ZListSessionsInput)
    .output(ZSessionPage)
    .query(({ ctx, input }) => listSessions(ctx, ctx.auth, input)),

  pause: apiProcedure
    .meta({ openapi: { method: 'POST', path: '/v1/sessions/{sessionId}/pause', tags, summary: 'Pause a session in progress' }, ...lifecycle })
    .input(ZPauseSessionInput)
    .output(ZSessionView)
    .mutation(({ ctx, input }) => pauseSession(ctx, ctx.auth, input)),

  resume: apiProcedure
    .meta({ openapi: { method: 'POST', path: '/v1/sessions/{sessionId}/resume', tags, summary: 'Resume a paused session' }, ...lifecycle })
    .input(ZSessionIdInput)
    .output(ZSessionView)
    .mutation(({ ctx, input }) => resumeSession(ctx, ctx.auth, input)),

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
    .mutation(({ ctx, input }) => heartbeatSession(ctx, ctx.auth, input)),

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
    .mutation(({ ctx, input }) => consentSession(ctx, ctx.auth, { ...input, ip: input.ip ?? ctx.req.ip ?? null })),

  listFiles: listFilesProcedure('/v1/sessions/{sessionId}/files'),
  /** The spec's `/api/session/{sessionId}/files`: the same operation under `/api`. */
  listFilesUnderApiPrefix: listFilesProcedure('/api/session/{sessionId}/files'),
});
