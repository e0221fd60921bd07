import type { ParticipantAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import type { TDevice, TInterviewState } from '../../../shared/schemas/sessions.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isPlan, PLANS } from '../../../shared/plans.js';
import type { TCampaignSettings } from '../../../shared/schemas/campaigns.js';
import type { TQuestion, TScriptSettings } from '../../../shared/schemas/scripts.js';
import { type ScriptVersion, Session } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { assertKnownVoice } from '../../speech/speech-synthesizer.js';
import { newId } from '../../lib/ids.js';
import { addJobs } from '../../jobs/add-jobs.js';
import type { AppServices } from '../../services.js';
import { effectiveInviteStatus, languageOf, startInvite } from '../invites/index.js';
import { beginInterview, interviewStateOf, pendingTurnOf, watchJobs } from './interview-turns.js';
import { announceStartJob } from './session-jobs.js';
import { type InterviewPlan, loadPlan } from './load-session.js';
import { findUnfinishedSession, loadParticipantInvite } from './participant-access.js';
import { recordInterviewStart, startContext, type UtteranceRow, versionToRun } from './queries.js';
import type { ScriptQuestionMedia } from './question-media.js';
import { speakingSeconds, utteranceRow } from './record-utterance.js';
import { toParticipantSessionDto } from './serialize.js';
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
  const started = await startInOneStatement(em, services, participant, input);
  if (started) return { state: started, created: true };
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
    const hold = preview
      ? 0
      : await holdStartingCredits(tx, {
          organizationId: invite.organization.id,
          plan: invite.organization.plan,
          testModeInterviewsPerDay: services.config.testModeInterviewsPerDay,
        });
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

/**
 * The common start, a pending invite's first interview (no consent to wait for, no share link,
 * not a preview), written in one statement (recordInterviewStart): the invite started, the
 * session in progress with its first question, the credit hold and the watching jobs. The same
 * rows and values as the locked start above, without the ORM's reads, unit of work and
 * transaction round trips (the interview answer's benchmark, issue 33).
 *
 * Null: this start is not the common one, or something it was read with changed before the write
 * (the campaign, the invite, the published version, the plan) or the credits are not there; the
 * locked start then does it or says why not.
 */
async function startInOneStatement(
  em: EntityManager,
  services: SessionServices,
  participant: ParticipantAuth,
  input: StartInterviewInput,
): Promise<TInterviewState | null> {
  const organizationId = participant.organizationId;
  const row = await startContext.first(em, { organizationId, inviteId: participant.inviteId });
  if (!row || row.version === null || row.had_session) return null;
  // The columns hold what the schemas allowed when they were written.
  const campaignSettings = row.campaign_settings as TCampaignSettings;
  const common =
    row.invite_status === 'pending' &&
    row.unexpired &&
    !row.via_share_link &&
    row.campaign_status === 'active' &&
    !row.preview &&
    // A test world's start is counted against its daily cap: the locked start does that.
    row.livemode &&
    !campaignSettings.requireConsent;
  if (!common || !isPlan(row.plan)) return null;
  const plan: InterviewPlan = { systemPrompt: row.system_prompt!, questions: row.questions as TQuestion[], settings: row.settings as TScriptSettings };
  const first = plan.questions[0]!;
  const now = new Date();
  const session = {
    id: newId('ses'),
    organization: { id: organizationId },
    scriptId: row.script_id,
    status: 'in_progress' as const,
    completionStatus: null,
    language: languageOf(row.invite_language, campaignSettings, plan.settings.language),
    voice: input.voice ?? campaignSettings.voice ?? plan.settings.voice ?? null,
    consentRequired: false,
    consent: null,
    questionsAnswered: 0,
    totalQuestions: plan.questions.length,
    maxDurationSeconds: campaignSettings.maxDuration ?? null,
    activeSeconds: 0,
    activeSince: now,
    startedAt: now,
    completedAt: null,
    createdAt: now,
    questionIndex: 0,
  };
  // As askTurn puts it: the clock starts with the question, which takes its reading time.
  const turnRow: UtteranceRow = {
    ...utteranceRow(0, { speaker: 'ai', kind: 'question', text: first.text, questionId: first.id, startTime: 0, endTime: speakingSeconds(first.text) }),
    decided_by: 'engine',
  };
  // The turn as the client will see it (its audio and media links) before the write, so nothing fails once it has committed.
  const turn = await pendingTurnOf(
    em,
    services,
    { ...session, pendingUtteranceId: turnRow.id },
    plan,
    now,
    { id: turnRow.id, text: first.text, kind: 'question', value: null },
    row.first_question_media as ScriptQuestionMedia[],
  );
  const written = await recordInterviewStart.first(em, {
    organizationId,
    inviteId: participant.inviteId,
    expected: {
      campaignId: row.campaign_id,
      campaignSettings: row.campaign_settings,
      inviteUpdatedAt: row.invite_updated_at,
      scriptId: row.script_id,
      publishedVersion: row.invite_script_version === null ? row.version : null,
      plan: row.plan,
    },
    holdCredits: PLANS[row.plan].pricePerMinuteCredits,
    session: {
      id: session.id,
      scriptVersion: row.version,
      language: session.language,
      voice: session.voice,
      participantEmail: row.email,
      participantName: row.name,
      device: input.device,
      metadata: row.metadata,
      maxDurationSeconds: session.maxDurationSeconds,
      totalQuestions: session.totalQuestions,
      at: now,
    },
    turn: turnRow,
    jobs: [...watchJobs(session, services.config, now), announceStartJob(session.id)],
  });
  if (!written) return null;
  return { session: toParticipantSessionDto(session, now), turn };
}
