import { z } from 'zod';
import {
  ZConsentInput,
  ZFeedback,
  ZFeedbackInput,
  ZInterviewState,
  ZParticipantSession,
  ZStartInterviewInput,
  ZListSessionsInput,
  ZPauseSessionInput,
  ZSession,
  ZListSessionFilesInput,
  ZSessionFilePage,
  ZSessionIdInput,
  ZSessionPage,
  ZSessionView,
} from '../../../shared/schemas/sessions.js';
import { deviceFromUserAgent } from '../../lib/user-agent.js';
import { type AppMeta, apiProcedure, INVITE_TOKEN, participantProcedure, router } from '../../trpc/trpc.js';
import { ZInvite, ZInviteIdInput } from '../../../shared/schemas/invites.js';
import { cancelInvite } from './cancel-invite.js';
import { consentSession } from './consent-session.js';
import { endInterview } from './end-interview.js';
import { getSession } from './get-session.js';
import { heartbeatSession } from './heartbeat-session.js';
import { listSessionFiles } from './list-session-files.js';
import { listSessions } from './list-sessions.js';
import { pauseSession } from './pause-session.js';
import { resumeSession } from './resume-session.js';
import { startInterview } from './start-interview.js';
import { submitFeedback } from './submit-feedback.js';

const tags = ['Sessions'];
const participantTags = ['Participant API'];

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
          "Granted on a session waiting for it: the interview begins (its first question is asked). Refused: the session is abandoned. `ip` defaults to the caller's address.",
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

/**
 * The participant API (design.md "Participant API"): what the interview page, the embed and any
 * custom client call with the invite token as bearer, never an API key. Answering takes audio as
 * multipart, so it is a stream operation (server/http/participant-answer.ts).
 */
export const participantApiRouter = router({
  start: participantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/interview/start',
        operationId: 'interview-start',
        tags: participantTags,
        summary: 'Start (or resume) the interview of an invite',
        description:
          'Bearer: the invite token. 201 with a new session and its first question (`turn`); 200 with the same session and its pending turn when the invite has an unfinished one. With `requireConsent` the session waits (`turn` null) until `POST /v1/sessions/{id}/consent`.',
        successDescription: 'The unfinished session, resumed',
      },
      permission: INVITE_TOKEN,
      errors: ['INSUFFICIENT_CREDITS', 'TEST_MODE_INTERVIEW_LIMIT', 'INVITE_EXPIRED', 'INVITE_ALREADY_USED', 'CAMPAIGN_NOT_ACTIVE', 'SHARE_LINK_CLOSED'],
    })
    .input(ZStartInterviewInput.optional())
    .output(ZInterviewState)
    .mutation(async ({ ctx, input }) => {
      const { state, created } = await startInterview(ctx, ctx.auth, {
        device: input?.device ?? deviceFromUserAgent(ctx.req.get('user-agent')),
        voice: input?.voice,
      });
      // A resumed interview creates nothing: 200 with the same session and its pending turn.
      ctx.answer.status = created ? 201 : 200;
      return state;
    }),

  end: participantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/interview/end',
        operationId: 'interview-end',
        tags: participantTags,
        summary: 'Leave the interview',
        description: 'An unfinished session is abandoned (its minutes billed, its transcript generated); a finished one is returned as it is.',
        successDescription: 'The session',
      },
      permission: INVITE_TOKEN,
      errors: ['SESSION_NOT_ACTIVE'],
    })
    .input(z.strictObject({}))
    .output(z.object({ session: ZParticipantSession }))
    .mutation(({ ctx }) => endInterview(ctx, ctx.auth)),

  feedback: participantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/interview/feedback',
        operationId: 'interview-feedback',
        tags: participantTags,
        summary: 'Give feedback on the finished interview (once)',
        successDescription: 'The feedback',
      },
      permission: INVITE_TOKEN,
      successStatus: 201,
      errors: ['SESSION_NOT_ACTIVE', 'FEEDBACK_ALREADY_SUBMITTED'],
    })
    .input(ZFeedbackInput)
    .output(z.object({ feedback: ZFeedback }))
    .mutation(({ ctx, input }) => submitFeedback(ctx, ctx.auth, input)),
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
