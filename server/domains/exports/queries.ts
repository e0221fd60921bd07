import { defineQuery } from '../../db/query.js';
import { sql } from '../../db/sql.js';

/** The campaigns of a project export, oldest first (previews are not campaigns a researcher made). */
export const projectExportCampaigns = defineQuery({
  columns: { id: 'text', name: 'text' },
  statement: ({ organizationId, projectId }: { organizationId: string; projectId: string }) =>
    sql`select id, name from campaigns where organization_id = ${organizationId} and project_id = ${projectId} and not preview order by created_at, id`,
  example: { organizationId: 'org_example', projectId: 'prj_example' },
});

/**
 * Sessions an export covers: the organization's finished sessions of these campaigns, or of these
 * sessions, or both (a ZIP's transcripts hold the sessions its manifest listed). Absent means not
 * narrowed by it.
 */
export interface FinishedSessionsScope {
  organizationId: string;
  campaignIds?: readonly string[];
  sessionIds?: readonly string[];
}

interface FinishedSessionsBatchParams {
  scope: FinishedSessionsScope;
  /** The last session of the batch before (none for the first). */
  after: { createdAt: string; id: string } | null;
  limit: number;
}

/** Every narrowing at once, so the schema check plans the fullest shape of the statement. */
const finishedSessionsBatchExample: FinishedSessionsBatchParams = {
  scope: { organizationId: 'org_example', campaignIds: ['cmp_example'], sessionIds: ['ses_example'] },
  after: { createdAt: '2026-01-01 00:00:00+00', id: 'ses_example' },
  limit: 100,
};

/**
 * One batch of finished sessions, oldest first, after the keyset `after` (`created_at` as this
 * statement answers it, at full precision, and `id`): what exports and anonymized exports make of
 * a session, and who its participant is (the session's and its invite's identity, for the scrubber).
 */
export const finishedSessionsBatch = defineQuery({
  columns: {
    id: 'text',
    campaign_id: 'text',
    invite_id: 'text',
    status: 'text',
    completion_status: 'text | null',
    participant_email: 'text | null',
    participant_name: 'text | null',
    metadata: 'jsonb',
    invite_email: 'text | null',
    invite_name: 'text | null',
    invite_metadata: 'jsonb | null',
    started_at: 'timestamp with time zone | null',
    completed_at: 'timestamp with time zone | null',
    created_at: 'text',
    duration_seconds: 'integer',
    language: 'text',
    questions_answered: 'integer',
    total_questions: 'integer',
    sentiment: 'text | null',
    sentiment_score: 'double precision | null',
    answers: 'jsonb',
    script_id: 'text',
    script_version: 'integer',
    transcript_status: 'text | null',
    transcript_generated_at: 'timestamp with time zone | null',
  },
  statement: ({ scope, after, limit }: FinishedSessionsBatchParams) =>
    sql`select s.id, s.campaign_id, s.invite_id, s.status, s.completion_status, s.participant_email, s.participant_name, s.metadata,
               i.email as invite_email, i.name as invite_name, i.metadata as invite_metadata,
               s.started_at, s.completed_at, s.created_at::text as created_at, s.duration_seconds, s.language, s.questions_answered, s.total_questions,
               s.sentiment, s.sentiment_score, s.answers, s.script_id, s.script_version, s.transcript_status, s.transcript_generated_at
          from sessions s left join invites i on i.id = s.invite_id
         where s.organization_id = ${scope.organizationId} and s.status in ('completed', 'abandoned') and not s.preview
           ${scope.campaignIds ? sql`and s.campaign_id = any(${[...scope.campaignIds]}::text[])` : sql``}
           ${scope.sessionIds ? sql`and s.id = any(${[...scope.sessionIds]}::text[])` : sql``}
           ${after ? sql`and (s.created_at, s.id) > (${after.createdAt}::timestamptz, ${after.id})` : sql``}
         order by s.created_at, s.id limit ${limit}`,
  example: finishedSessionsBatchExample,
});

/** The finished sessions of the campaigns a ZIP holds, oldest first, up to `limit`. */
export const zipFinishedSessions = defineQuery({
  columns: { id: 'text', campaign_id: 'text' },
  statement: ({ campaignIds, limit }: { campaignIds: string[]; limit: number }) =>
    sql`select id, campaign_id from sessions where campaign_id = any(${campaignIds}::text[]) and status in ('completed', 'abandoned') and not preview order by created_at, id limit ${limit}`,
  example: { campaignIds: ['cmp_example'], limit: 1001 },
});

/** How many finished sessions the campaigns of a ZIP hold (said when there are too many). */
export const zipFinishedSessionCount = defineQuery({
  columns: { count: 'integer' },
  statement: ({ campaignIds }: { campaignIds: string[] }) =>
    sql`select count(*)::int as count from sessions where campaign_id = any(${campaignIds}::text[]) and status in ('completed', 'abandoned') and not preview`,
  example: { campaignIds: ['cmp_example'] },
});
