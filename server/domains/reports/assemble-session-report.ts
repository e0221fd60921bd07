import type { EntityManager } from '@mikro-orm/postgresql';
import type { TPdfQuery } from '../../../shared/schemas/transcripts.js';
import { Campaign, Organization } from '../../entities/index.js';
import type { OrganizationLogos } from '../../reports/organization-logos.js';
import type { SessionReport } from '../../reports/session-report.js';
import { findInsights } from '../insights/get-insights.js';
import { loadPlan } from '../sessions/load-session.js';
import { loadTranscriptSource } from '../transcripts/load-transcript.js';
import { redactorFor } from '../transcripts/shape-transcript.js';
import { storedSentiment } from '../transcripts/stored-sentiment.js';

/**
 * Everything a session's PDF report shows, read and (with `redact_pii`) redacted here, so the
 * renderer only lays out what it is given. 409 TRANSCRIPT_NOT_READY before the transcript exists.
 */
export async function assembleSessionReport(
  em: EntityManager,
  logos: Pick<OrganizationLogos, 'fetch'>,
  organizationId: string,
  sessionId: string,
  options: Pick<TPdfQuery, 'branding' | 'redact_pii' | 'include_insights'>,
): Promise<SessionReport> {
  const { session, source } = await loadTranscriptSource(em, organizationId, sessionId);
  const [organization, campaign, insights, plan] = await Promise.all([
    em.findOneOrFail(Organization, organizationId, { fields: ['name', 'logo', 'settings'], disableIdentityMap: true }),
    em.findOneOrFail(Campaign, session.campaign.id, { fields: ['name'], disableIdentityMap: true }),
    options.include_insights ? findInsights(em, session.id) : Promise.resolve(null),
    loadPlan(em, session),
  ]);
  const custom = options.branding === 'custom';
  const redactor = options.redact_pii ? redactorFor(source) : null;
  const clean = redactor ? (text: string) => redactor.piece(text) : (text: string) => text;
  const startTimes = new Map(source.rows.map((row) => [row.id, row.startTime]));
  const questionText = new Map(plan.questions.map((question) => [question.id, question.text]));
  return {
    organization: {
      name: organization.name,
      logo: custom ? await logos.fetch(organization.logo) : null,
      brandColor: custom ? (organization.settings.brandColor ?? null) : null,
    },
    campaign: { id: campaign.id, name: campaign.name },
    session: {
      id: session.id,
      participant: {
        name: session.participantName ? clean(session.participantName) : null,
        email: session.participantEmail ? (options.redact_pii ? '[EMAIL REDACTED]' : session.participantEmail) : null,
      },
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
          keyQuotes: insights.keyQuotes.map((quote) => ({ text: clean(quote.text), utteranceId: quote.utteranceId, startTime: startTimes.get(quote.utteranceId) ?? null })),
          actionItems: insights.actionItems.map(clean),
          topics: insights.topics.map((topic) => ({ label: clean(topic.label), utteranceCount: topic.utteranceIds.length })),
        }
      : null,
    utterances: source.rows.map((row) => ({
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
