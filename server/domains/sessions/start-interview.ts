import type { ParticipantAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { TDevice, TInterviewState } from '../../../shared/schemas/sessions.js';
import { type ScriptVersion, Session } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { assertKnownVoice } from '../../speech/speech-synthesizer.js';
import { newId } from '../../lib/ids.js';
import { addJobs } from '../../jobs/add-jobs.js';
import type { AppServices } from '../../services.js';
import { effectiveInviteStatus, languageOf, startInvite } from '../invites/index.js';
import { beginInterview, interviewStateOf, watchJobs } from './interview-turns.js';
import { loadPlan } from './load-session.js';
import { findUnfinishedSession, loadParticipantInvite } from './participant-access.js';
import { versionToRun } from './queries.js';
import { holdStartingCredits } from './session-billing.js';

export type SessionServices = Pick<
  AppServices,
  'config' | 'interviewer' | 'speech' | 'storage' | 'logger' | 'transcriptions' | 'signer' | 'synthesis' | 'turnAudio' | 'answerParser'
>;

export interface StartInterviewInput {
  /** What the client says about its device; else what its User-Agent says (parsed by the caller). */
  device: TDevice;
  /** The SDK's `voice`; else the campaign's, else the script's. */
  voice?: string | undefined;
}

/**
 * `POST /api/interview/start`: opens the invite's interview, or resumes the one it has (same
 * session, the pending turn again; `created: false`). A new session pins the campaign's newest
 * published script version (a preview invite's own version, see createScriptPreview), copies the
 * invite's participant and metadata, holds one minute of credits (none for a preview), and asks
 * its first question, unless the campaign requires consent first (it then stays `created` until
 * `/v1/sessions/{id}/consent`).
 */
export async function startInterview(
  { em, services }: Pick<Deps, 'em'> & { services: SessionServices },
  participant: ParticipantAuth,
  input: StartInterviewInput,
): Promise<{ state: TInterviewState; created: boolean }> {
  // Refused where it is set, never spoken in some other voice.
  assertKnownVoice(services.synthesis.synthesizer, input.voice, 'voice');
  return em.transactional(async (tx) => {
    const invite = await loadParticipantInvite(tx, participant);
    const resume = async (session: Session) => ({ state: await interviewStateOf(tx, services, session, await loadPlan(tx, session)), created: false });
    const existing = await findUnfinishedSession(tx, invite.id);
    if (existing) return resume(existing);
    if (effectiveInviteStatus(invite) === 'completed') {
      throw new AppError('INVITE_ALREADY_USED', 'This interview has been completed; the invite cannot start another.', { inviteId: invite.id });
    }
    // Locks campaign → invite → share link and checks them (expired, campaign paused, link full).
    await startInvite({ em: tx }, participant, { inviteId: invite.id });
    // A start that raced this one on the same token got the invite lock first and opened the session.
    const raced = await findUnfinishedSession(tx, invite.id);
    if (raced) return resume(raced);

    const campaign = invite.campaign;
    const scriptId = campaign.script.id;
    // A preview invite runs the version it was made for (a draft included); every other one the published version.
    const row = await versionToRun.first(tx, { scriptId, version: invite.scriptVersion ?? null });
    if (!row) throw new Error(`script ${scriptId} has no version ${invite.scriptVersion ?? 'published'}`);
    // The columns hold what the script schemas allowed when the version was saved.
    const version = {
      version: row.version,
      systemPrompt: row.system_prompt,
      questions: row.questions as ScriptVersion['questions'],
      settings: row.settings as ScriptVersion['settings'],
    };
    // A preview costs no credits: nothing is held, and nothing is charged when it finishes.
    const preview = campaign.preview;
    const hold = preview ? 0 : await holdStartingCredits(tx, invite.organization.id, invite.organization.plan);
    const now = new Date();
    const session = tx.create(Session, {
      id: newId('ses'),
      organization: invite.organization.id,
      campaign: campaign.id,
      invite: invite.id,
      scriptId,
      scriptVersion: version.version,
      preview,
      status: 'created',
      completionStatus: null,
      language: languageOf(invite.language, campaign.settings, version.settings.language),
      voice: input.voice ?? campaign.settings.voice ?? version.settings.voice ?? null,
      participantEmail: invite.email ?? null,
      participantName: invite.name ?? null,
      device: input.device,
      metadata: invite.metadata,
      consentRequired: campaign.settings.requireConsent === true,
      consent: null,
      pauseReason: null,
      startedAt: null,
      completedAt: null,
      lastActivityAt: now,
      activeSince: null,
      activeSeconds: 0,
      durationSeconds: 0,
      maxDurationSeconds: campaign.settings.maxDuration ?? null,
      totalQuestions: version.questions.length,
      questionsAnswered: 0,
      answers: [],
      questionIndex: 0,
      pending: null,
      pendingUtteranceId: null,
      followUpsAsked: 0,
      reAsked: false,
      nextSeq: 0,
      holdCredits: hold,
      billing: null,
      transcriptGeneratedAt: null,
      insightsGeneratedAt: null,
      completionAnnouncedAt: null,
    });
    const plan = { systemPrompt: version.systemPrompt, questions: version.questions, settings: version.settings };
    let asked;
    if (session.consentRequired) {
      await tx.flush();
      // Waiting for consent holds credits too: an invite opened and left is abandoned like any other.
      await addJobs(tx, watchJobs(session, services.config, now));
    } else {
      asked = await beginInterview(tx, session, plan, services.config, now);
    }
    return { state: await interviewStateOf(tx, services, session, plan, now, asked), created: true };
  });
}
