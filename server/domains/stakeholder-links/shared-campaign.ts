import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaignResults, TResultsFilter } from '../../../shared/schemas/campaign-results.js';
import { PII_KINDS } from '../../../shared/schemas/pii.js';
import { STAKEHOLDER_LINK_LIMITS, type TSharedView } from '../../../shared/schemas/stakeholder-links.js';
import { redactPii } from '../../analysis/pii-redaction.js';
import { joinSql, queryRows, type Sql, sql } from '../../db/sql.js';
import { getCampaignResults } from '../campaign-results/get-campaign-results.js';
import type { SharedLink } from './find-shared-link.js';
import { readSharedSessions } from './shared-sessions.js';

/**
 * The filter as a condition on `s` (sessions), for the session list beside the results, read as
 * the results domain reads it (every segment pair on the metadata copied from the invite, as
 * text; a language tag and its regions; created at or after `from` and before `to`; the
 * completion). When the results branch is merged this is its `keptSessionsWhere`, which the
 * lead swaps in here so the list and the charts share one predicate.
 */
function filterCondition(filter: TResultsFilter): Sql {
  const conditions: Sql[] = [sql`true`];
  for (const [key, value] of Object.entries(filter.segment ?? {})) conditions.push(sql`s.metadata ->> ${key}::text = ${value}::text`);
  if (filter.language) {
    conditions.push(sql`(lower(s.language) = lower(${filter.language}::text) or starts_with(lower(s.language), lower(${filter.language}::text) || '-'))`);
  }
  if (filter.from) conditions.push(sql`s.created_at >= ${filter.from}::timestamptz`);
  if (filter.to) conditions.push(sql`s.created_at < ${filter.to}::timestamptz`);
  if (filter.completion === 'unfinished') conditions.push(sql`s.status in ('created', 'in_progress', 'paused')`);
  else if (filter.completion === 'abandoned') conditions.push(sql`s.status = 'abandoned'`);
  else if (filter.completion) conditions.push(sql`s.completion_status = ${filter.completion}`);
  return joinSql(conditions, ' and ');
}

/** A text of the results that may carry PII (feedback, an unlisted answer) through the redactor with every kind it knows. */
function clean(text: string): string {
  return redactPii(text, PII_KINDS);
}

/**
 * The results with PII redacted: feedback comments and issues, and free-text answer values,
 * through the PII redactor; no participant named; segment values that hold PII left out of the
 * picker (they would name someone).
 */
function redactResults(results: TCampaignResults): TCampaignResults {
  return {
    ...results,
    questions: results.questions.map((question) => ({ ...question, counts: question.counts.map((count) => ({ ...count, value: clean(count.value) })) })),
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
 * filter keeps, newest first, at most 100.
 */
export async function readSharedCampaign(em: EntityManager, link: SharedLink, filter: TResultsFilter | undefined): Promise<NonNullable<TSharedView['campaign']>> {
  const [campaign] = await queryRows<{ name: string }>(em, sql`select name from campaigns where id = ${link.targetId} and organization_id = ${link.organizationId}`);
  const results = await getCampaignResults(em, link.organizationId, { campaignId: link.targetId, ...(filter ? { filter } : {}) });
  const sessions = link.includeTranscripts
    ? await readSharedSessions(em, link.organizationId, sql`s.campaign_id = ${link.targetId} and ${filterCondition(filter ?? {})}`, {
        includeTranscripts: true,
        redactPii: link.redactPii,
        limit: STAKEHOLDER_LINK_LIMITS.maxSharedSessions,
      })
    : null;
  return { name: campaign?.name ?? '', results: link.redactPii ? redactResults(results) : results, sessions };
}
