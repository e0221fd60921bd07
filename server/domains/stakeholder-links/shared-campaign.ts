import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaignResults, TResultsFilter } from '../../../shared/schemas/campaign-results.js';
import { PII_KINDS } from '../../../shared/schemas/pii.js';
import { STAKEHOLDER_LINK_LIMITS, type TSharedView } from '../../../shared/schemas/stakeholder-links.js';
import { redactPii } from '../../analysis/pii-redaction.js';
import { sharedCampaignName } from './queries.js';
import { getCampaignResults, keptSessionsWhere } from '../campaign-results/index.js';
import { systemCaller } from '../common/caller.js';
import type { SharedLink } from './find-shared-link.js';
import { readSharedSessions } from './shared-sessions.js';

/** A text of the results that may carry PII (feedback, an unlisted answer) through the redactor with every kind it knows. */
function clean(text: string): string {
  return redactPii(text, PII_KINDS);
}

/**
 * The results with PII redacted: feedback comments and issues, free-text answer values and open
 * answers' quotes, through the PII redactor; no participant named; segment values that hold PII
 * left out of the picker (they would name someone).
 */
function redactResults(results: TCampaignResults): TCampaignResults {
  return {
    ...results,
    questions: results.questions.map((question) => ({
      ...question,
      counts: question.counts.map((count) => ({ ...count, value: clean(count.value) })),
      quotes: question.quotes.map((quote) => ({ ...quote, text: clean(quote.text) })),
    })),
    feedback: {
      ...results.feedback,
      comments: results.feedback.comments.map((comment) => ({
        ...comment,
        participant: null,
        comments: comment.comments === null ? null : clean(comment.comments),
        technicalIssues: comment.technicalIssues === null ? null : clean(comment.technicalIssues),
      })),
    },
    segmentKeys: results.segmentKeys.map((segment) => ({ key: segment.key, values: segment.values.filter((value) => clean(value) === value) })),
  };
}

/**
 * A campaign's results as the results page shows them (the results domain counts them, preview
 * sessions never), for the filter the viewer picked; and, with transcripts, its sessions the
 * filter keeps (the results' own predicate, so the list and the charts agree), newest first, at
 * most 100.
 */
export async function readSharedCampaign(
  em: EntityManager,
  link: SharedLink,
  filter: TResultsFilter | undefined,
): Promise<NonNullable<TSharedView['campaign']>> {
  const campaign = await sharedCampaignName.first(em, { organizationId: link.organizationId, campaignId: link.targetId });
  const results = await getCampaignResults({ em }, systemCaller(link.organizationId), { campaignId: link.targetId, ...(filter ? { filter } : {}) });
  const sessions = link.includeTranscripts
    ? await readSharedSessions(em, link.organizationId, keptSessionsWhere(link.organizationId, link.targetId, filter ?? {}), {
        includeTranscripts: true,
        redactPii: link.redactPii,
        limit: STAKEHOLDER_LINK_LIMITS.maxSharedSessions,
      })
    : null;
  // Open answers' quotes stay without transcripts: like the feedback comments, a handful of answers is part of the
  // results a stakeholder is shown (redacted when the link asks), not the sessions' transcripts the link leaves out.
  return { name: campaign?.name ?? '', results: link.redactPii ? redactResults(results) : results, sessions };
}
