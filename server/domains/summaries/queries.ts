import { SUMMARY_LIMITS } from '../../../shared/schemas/summaries.js';
import { sql } from '../../db/sql.js';
import { defineQuery } from '../../db/query.js';

/** A participant utterance worth reading: it has words. */
const ANSWERED = sql`u.speaker = 'participant' and u.text is not null and btrim(u.text) <> ''`;

/** The answered participant utterances of the sessions, sessions in the order they started (the model reads them as they happened). */
export const answeredUtterances = defineQuery({
  columns: {
    id: 'text',
    session_id: 'text',
    question_id: 'text | null',
    text: 'text',
    keywords: 'jsonb | null',
    sentiment: 'text | null',
    heard_check: 'text | null',
    language: 'text',
  },
  statement: ({ organizationId, sessionIds }: { organizationId: string; sessionIds: string[] }) =>
    sql`select u.id, u.session_id, u.question_id, u.text, u.keywords, coalesce(u.sentiment_override, u.sentiment) as sentiment, u.heard_check, s.language
                from session_utterances u join sessions s on s.id = u.session_id
               where u.organization_id = ${organizationId} and u.session_id in (select jsonb_array_elements_text(${JSON.stringify(sessionIds)}::jsonb)) and ${ANSWERED}
               order by s.started_at nulls last, s.id, u.seq`,
  example: { organizationId: 'org_example', sessionIds: ['ses_example'] },
});

/** Which of the ids are the organization's sessions; a preview is not a result to summarize. */
export const summarizableSessionIds = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, sessionIds }: { organizationId: string; sessionIds: string[] }) =>
    sql`select id from sessions where organization_id = ${organizationId} and not preview and id in (select jsonb_array_elements_text(${JSON.stringify(sessionIds)}::jsonb))`,
  example: { organizationId: 'org_example', sessionIds: ['ses_example'] },
});

/** The organization's campaign (not a preview's), if it is. */
export const summarizableCampaign = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, campaignId }: { organizationId: string; campaignId: string }) =>
    sql`select id from campaigns where organization_id = ${organizationId} and id = ${campaignId} and not preview`,
  example: { organizationId: 'org_example', campaignId: 'cam_example' },
});

/** A campaign's newest answered sessions that started in the window, one more than a summary reads (to tell it was capped). */
export const newestAnsweredSessions = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, campaignId, from, to }: { organizationId: string; campaignId: string; from?: string; to?: string }) =>
    sql`select s.id from sessions s
         where s.organization_id = ${organizationId} and s.campaign_id = ${campaignId} and s.started_at is not null and not s.preview${from ? sql` and s.started_at >= ${from}::timestamptz` : sql``}${to ? sql` and s.started_at < ${to}::timestamptz` : sql``}
           and exists (select 1 from session_utterances u where u.session_id = s.id and ${ANSWERED})
         order by s.started_at desc, s.id
         limit ${SUMMARY_LIMITS.maxSessions + 1}`,
  example: {
    organizationId: 'org_example',
    campaignId: 'cam_example',
    from: '2026-01-01T00:00:00Z' as string | undefined,
    to: '2026-02-01T00:00:00Z' as string | undefined,
  },
});

/** The questions of the script versions the sessions were asked, oldest version first. */
export const askedScriptVersions = defineQuery({
  columns: { version: 'integer', questions: 'jsonb' },
  statement: ({ organizationId, sessionIds }: { organizationId: string; sessionIds: string[] }) =>
    sql`select sv.version, sv.questions from script_versions sv
         where (sv.script_id, sv.version) in (select distinct s.script_id, s.script_version from sessions s
                                                where s.organization_id = ${organizationId} and s.id in (select jsonb_array_elements_text(${JSON.stringify(sessionIds)}::jsonb)))
         order by sv.version`,
  example: { organizationId: 'org_example', sessionIds: ['ses_example'] },
});
