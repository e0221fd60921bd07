import type { EntityManager } from '@mikro-orm/postgresql';
import { requestedPiiKinds } from '../../../shared/schemas/pii.js';
import type { TQuestion } from '../../../shared/schemas/scripts.js';
import type { TPdfQuery } from '../../../shared/schemas/transcripts.js';
import { Campaign, Organization, type Session, type SessionInsights } from '../../entities/index.js';
import type { OrganizationLogos } from '../../reports/organization-logos.js';
import type { SessionReport } from '../../reports/session-report.js';
import { findInsights } from '../insights/index.js';
import { loadPlan } from '../sessions/index.js';
import { loadTranscriptSource, redactedParticipant, redactorFor, type TranscriptSource } from '../transcripts/index.js';
import type { OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { storedSentiment } from '../common/stored-sentiment.js';

/** Everything a session's report is made from, as read (nothing redacted yet). */
export interface SessionReportSource {
  session: Session;
  transcript: TranscriptSource;
  organization: SessionReport['organization'];
  campaign: SessionReport['campaign'];
  /** null when the report leaves them out, or while there are none. */
  insights: SessionInsights | null;
  questions: TQuestion[];
}

/**
 * Reads what a report shows besides the session and its transcript, which the caller has loaded:
 * the organization (its logo only for custom branding), the campaign, the insights (only when
 * included) and the script's questions.
 */
export async function loadSessionReportSource(
  em: EntityManager,
  logos: Pick<OrganizationLogos, 'fetch'>,
  session: Session,
  transcript: TranscriptSource,
  options: Pick<TPdfQuery, 'branding' | 'include_insights'>,
): Promise<SessionReportSource> {
  const [organization, campaign, insights, plan] = await Promise.all([
    em.findOneOrFail(Organization, session.organization.id, { fields: ['name', 'logo', 'settings'], disableIdentityMap: true }),
    em.findOneOrFail(Campaign, session.campaign.id, { fields: ['name'], disableIdentityMap: true }),
    options.include_insights ? findInsights(em, session.id) : Promise.resolve(null),
    loadPlan(em, session),
  ]);
  const custom = options.branding === 'custom';
  return {
    session,
    transcript,
    organization: {
      name: organization.name,
      logo: custom ? await logos.fetch(organization.logo) : null,
      brandColor: custom ? (organization.settings.brandColor ?? null) : null,
    },
    campaign: { id: campaign.id, name: campaign.name },
    insights,
    questions: plan.questions,
  };
}

/** The report from what was read, redacted here when asked, so the renderer only lays out what it is given. */
export function buildSessionReport(
  source: SessionReportSource,
  options: Pick<TPdfQuery, 'redact_pii'> & Partial<Pick<TPdfQuery, 'redact_kinds'>>,
): SessionReport {
  const { session, transcript, insights } = source;
  const redactor = redactorFor(transcript, requestedPiiKinds(options));
  const clean = redactor ? (text: string) => redactor.piece(text) : (text: string) => text;
  const startTimes = new Map(transcript.rows.map((row) => [row.id, row.startTime]));
  const questionText = new Map(source.questions.map((question) => [question.id, question.text]));
  return {
    organization: source.organization,
    campaign: source.campaign,
    session: {
      id: session.id,
      participant: redactedParticipant({ email: session.participantEmail ?? null, name: session.participantName ?? null }, redactor),
      startedAt: session.startedAt ?? null,
      completedAt: session.completedAt ?? null,
      durationSeconds: session.durationSeconds,
      language: session.language,
      status: session.status,
      completionStatus: session.completionStatus ?? null,
      questionsAnswered: session.questionsAnswered,
      totalQuestions: session.totalQuestions,
      sentiment: storedSentiment(session.sentiment, session.sentimentScore),
    },
    answers: session.answers
      .filter((answer) => questionText.has(answer.questionId))
      .map((answer) => ({ questionText: questionText.get(answer.questionId)!, value: typeof answer.value === 'string' ? clean(answer.value) : answer.value })),
    insights: insights
      ? {
          summary: clean(insights.summary),
          keyQuotes: insights.keyQuotes.map((quote) => ({
            text: clean(quote.text),
            utteranceId: quote.utteranceId,
            startTime: startTimes.get(quote.utteranceId) ?? null,
          })),
          actionItems: insights.actionItems.map(clean),
          topics: insights.topics.map((topic) => ({ label: clean(topic.label), utteranceCount: topic.utteranceIds.length })),
        }
      : null,
    utterances: transcript.rows.map((row) => ({
      id: row.id,
      speaker: row.speaker,
      text: redactor ? redactor.utterance(row.text) : row.text,
      startTime: row.startTime,
      endTime: row.endTime,
      sentiment: row.sentiment,
    })),
    generatedAt: new Date(),
  };
}

/**
 * Everything a session's PDF report shows, for `GET …/pdf`: 409 TRANSCRIPT_NOT_READY before the
 * transcript exists, 404 for another organization's session.
 */
export async function assembleSessionReport(
  { em, services }: Pick<Deps, 'em'> & { services: { logos: Pick<OrganizationLogos, 'fetch'> } },
  scope: OrganizationScope,
  input: Pick<TPdfQuery, 'branding' | 'redact_pii' | 'include_insights'> & Partial<Pick<TPdfQuery, 'redact_kinds'>> & { sessionId: string },
): Promise<SessionReport> {
  const { session, source } = await loadTranscriptSource(em, scope, input);
  return buildSessionReport(await loadSessionReportSource(em, services.logos, session, source, input), input);
}
