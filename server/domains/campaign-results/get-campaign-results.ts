import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaignResults, TCampaignResultsInput, TQuestionResult } from '../../../shared/schemas/campaign-results.js';
import type { TQuestion, TStructuredQuestionType } from '../../../shared/schemas/scripts.js';
import type { TAnswerValue } from '../../../shared/schemas/sessions.js';
import { isoTimestamp, queryRows, rawSql, sql } from '../../db/sql.js';
import { distributionOf, round, scriptQuestions, structuredQuestions } from '../comparisons/index.js';
import { keptInvitesFilter, keptSessionsWhere, loadResultsCampaign } from './results-filter.js';

interface FacetsRow {
  segment_keys: { key: string; values: string[] }[];
  languages: string[];
  versions: { version: number; questions: TQuestion[] }[];
}

interface FunnelRow {
  started: number;
  completed: number;
  timed_out: number;
  abandoned: number;
  in_progress: number;
  invited: number;
}

interface AnswerRow {
  question_id: string;
  value: TAnswerValue;
  count: number;
}

interface OpenAnswersRow {
  question_id: string;
  answered: number;
  unreadable: number;
  quotes: TQuestionResult['quotes'];
}

interface FeedbackRow {
  count: number;
  overall: number | null;
  ease_of_use: number | null;
  audio_quality: number | null;
  question_clarity: number | null;
  yes: number;
  no: number;
  comments: TCampaignResults['feedback']['comments'];
}

/** Segment picker limits: enough to choose from, bounded for a key that holds one value per participant. */
const SEGMENT_KEYS_LIMIT = 50;
const SEGMENT_VALUES_LIMIT = 50;
const COMMENTS_LIMIT = 50;
/** Quotes per open question: a taste of what participants said; the transcripts hold the rest. */
const QUOTES_LIMIT = 5;

/**
 * A campaign's results for the sessions `input.filter` keeps (preview sessions never): the
 * funnel, every structured question's answers counted against the script versions the
 * campaign's sessions ran (the newest wording wins, answers count by question id), every open
 * question's answered count and newest answers, the participants' feedback, and what the
 * segment picker offers. Six statements whatever the number of sessions: the campaign, the
 * campaign-wide facets and script versions, then the funnel, the answers, the open answers and
 * the feedback side by side, each aggregated in PostgreSQL.
 * RESOURCE_NOT_FOUND for a campaign of another organization or a preview campaign.
 */
export async function getCampaignResults(em: EntityManager, organizationId: string, input: TCampaignResultsInput): Promise<TCampaignResults> {
  const filter = input.filter ?? {};
  const campaign = await loadResultsCampaign(em, organizationId, input.campaignId);
  const kept = keptSessionsWhere(organizationId, campaign.id, filter);

  const [[facets], [funnel], answers, openAnswers, [feedback]] = await Promise.all([
    // Campaign-wide, whatever the filter: the picker offers every segment, and two panels side by side list the same questions.
    queryRows<FacetsRow>(
      em,
      sql`with cs as (
            select s.metadata, s.language, s.script_id, s.script_version from sessions s
             where s.organization_id = ${organizationId} and s.campaign_id = ${campaign.id} and not s.preview
          )
          select
            coalesce((select jsonb_agg(jsonb_build_object('key', k.key, 'values', to_jsonb(k.vals)) order by k.key)
                        from (select e.key, (array_agg(distinct e.value order by e.value))[1:${SEGMENT_VALUES_LIMIT}::int] as vals
                                from cs cross join lateral jsonb_each_text(cs.metadata) as e(key, value)
                               group by e.key order by e.key limit ${SEGMENT_KEYS_LIMIT}::int) k), '[]'::jsonb) as segment_keys,
            coalesce((select jsonb_agg(l.language order by l.language) from (select distinct cs.language from cs) l), '[]'::jsonb) as languages,
            coalesce((select jsonb_agg(jsonb_build_object('version', sv.version, 'questions', sv.questions))
                        from script_versions sv join scripts sc on sc.id = sv.script_id
                       where sc.organization_id = ${organizationId}
                         and ((sv.script_id, sv.version) in (select distinct cs.script_id, cs.script_version from cs)
                              or (sv.script_id = ${campaign.script_id} and sv.version = ${campaign.published_version}::int))), '[]'::jsonb) as versions`,
    ),
    queryRows<FunnelRow>(
      em,
      sql`select count(*)::int as started,
                 count(*) filter (where s.completion_status = 'completed')::int as completed,
                 count(*) filter (where s.completion_status = 'timed_out')::int as timed_out,
                 count(*) filter (where s.status = 'abandoned')::int as abandoned,
                 count(*) filter (where s.status in ('created', 'in_progress', 'paused'))::int as in_progress,
                 (select count(*)::int
                    from invites i join campaigns c on c.id = i.campaign_id join scripts sc on sc.id = c.script_id
                    left join script_versions sv on sv.script_id = sc.id and sv.version = sc.published_version
                   where i.organization_id = ${organizationId} and i.campaign_id = ${campaign.id}
                     and ((${keptInvitesFilter(filter)}) or i.id in (select s.invite_id from sessions s where ${kept}))) as invited
            from sessions s where ${kept}`,
    ),
    // One answer per session and question: a question answered twice (re-asked) counts its last value.
    queryRows<AnswerRow>(
      em,
      sql`select a.question_id, a.value, count(*)::int as count
            from (select distinct on (s.id, x.answer ->> 'questionId') x.answer ->> 'questionId' as question_id, x.answer -> 'value' as value
                    from sessions s cross join lateral jsonb_array_elements(s.answers) with ordinality as x(answer, n)
                   where ${kept}
                   order by s.id, x.answer ->> 'questionId', x.n desc) a
           group by 1, 2`,
    ),
    // Open answers are utterances, not values: a session's answers (follow-up replies too) to a question that was open in
    // the script version it ran. Per session its longest answer in words (a probe's "ok" never stands for someone who went
    // on to say more; none in words: unreadable), then per question the newest of those (row_number) up to QUOTES_LIMIT.
    queryRows<OpenAnswersRow>(
      em,
      sql`with open_questions as (
            select distinct sv.script_id, sv.version, q.question ->> 'id' as question_id
              from script_versions sv cross join lateral jsonb_array_elements(sv.questions) as q(question)
             where sv.script_id in (select s.script_id from sessions s where ${kept}) and q.question ->> 'type' = 'open'
          )
          select o.question_id,
                 count(*) filter (where o.text is not null)::int as answered,
                 count(*) filter (where o.text is null)::int as unreadable,
                 coalesce(jsonb_agg(jsonb_build_object('sessionId', o.session_id, 'utteranceId', o.id, 'text', o.text) order by o.newest)
                            filter (where o.newest <= ${QUOTES_LIMIT}::int), '[]'::jsonb) as quotes
            from (select b.*, row_number() over (partition by b.question_id, b.text is null order by b.created_at desc, b.id desc) as newest
                    from (select distinct on (u.question_id, u.session_id) u.question_id, u.session_id, u.id, nullif(btrim(u.text), '') as text, u.created_at
                            from sessions s
                            join session_utterances u on u.session_id = s.id
                            join open_questions oq on oq.script_id = s.script_id and oq.version = s.script_version and oq.question_id = u.question_id
                           where ${kept} and u.organization_id = ${organizationId} and u.speaker = 'participant' and u.kind = 'answer'
                           order by u.question_id, u.session_id, length(nullif(btrim(u.text), '')) desc nulls last, u.seq) b) o
           group by o.question_id`,
    ),
    queryRows<FeedbackRow>(
      em,
      sql`select count(*)::int as count,
                 avg(f.overall_rating)::float8 as overall,
                 avg(f.ease_of_use_rating)::float8 as ease_of_use,
                 avg(f.audio_quality_rating)::float8 as audio_quality,
                 avg(f.question_clarity_rating)::float8 as question_clarity,
                 count(*) filter (where f.would_recommend)::int as yes,
                 count(*) filter (where not f.would_recommend)::int as no,
                 coalesce((select jsonb_agg(to_jsonb(c) order by c."submittedAt" desc, c."sessionId")
                             from (select f2.session_id as "sessionId", coalesce(s.participant_name, s.participant_email) as participant,
                                          f2.overall_rating as "overallRating", nullif(btrim(f2.comments), '') as comments,
                                          nullif(btrim(f2.technical_issues), '') as "technicalIssues", ${rawSql(isoTimestamp('f2.submitted_at'))} as "submittedAt"
                                     from session_feedback f2 join sessions s on s.id = f2.session_id
                                    where f2.organization_id = ${organizationId} and ${kept}
                                      and (nullif(btrim(f2.comments), '') is not null or nullif(btrim(f2.technical_issues), '') is not null)
                                    order by f2.submitted_at desc, f2.session_id limit ${COMMENTS_LIMIT}::int) c), '[]'::jsonb) as comments
            from session_feedback f join sessions s on s.id = f.session_id
           where f.organization_id = ${organizationId} and ${kept}`,
    ),
  ]);

  const structured = new Map(structuredQuestions(facets!.versions).map((question) => [question.id, question]));
  // In the script's order, open questions among the others; an id that was ever structured counts as structured.
  const questions = scriptQuestions(facets!.versions).flatMap((question): TQuestionResult[] => {
    const counted = structured.get(question.id);
    if (counted) return [structuredResult(counted, answers)];
    if (question.type !== 'open') return [];
    const { answered = 0, unreadable = 0, quotes = [] } = openAnswers.find((row) => row.question_id === question.id) ?? {};
    return [{ questionId: question.id, text: question.text, type: 'open', answered, unreadable, counts: [], rating: null, quotes }];
  });

  return {
    campaignId: campaign.id,
    filter,
    sessionCount: funnel!.started,
    funnel: {
      invited: funnel!.invited,
      started: funnel!.started,
      completed: funnel!.completed,
      abandoned: funnel!.abandoned,
      timedOut: funnel!.timed_out,
      inProgress: funnel!.in_progress,
    },
    questions,
    feedback: {
      count: feedback!.count,
      overall: mean(feedback!.overall),
      easeOfUse: mean(feedback!.ease_of_use),
      audioQuality: mean(feedback!.audio_quality),
      questionClarity: mean(feedback!.question_clarity),
      wouldRecommend: { yes: feedback!.yes, no: feedback!.no },
      comments: feedback!.comments,
    },
    segmentKeys: facets!.segment_keys,
    languages: facets!.languages,
  };
}

/** A structured question's answers counted in the script's order, with its mean and NPS for a rating. */
function structuredResult(question: TQuestion & { type: TStructuredQuestionType }, answers: AnswerRow[]): TQuestionResult {
  const distribution = distributionOf(
    question,
    answers.filter((answer) => answer.question_id === question.id).map((answer) => ({ value: answer.value, count: answer.count })),
  );
  return {
    questionId: question.id,
    text: question.text,
    type: question.type,
    answered: distribution.answered,
    unreadable: distribution.unreadable,
    counts: distribution.counts.map((entry) => ({ value: valueText(entry.value), count: entry.count })),
    rating: distribution.scale
      ? {
          min: distribution.scale.min,
          max: distribution.scale.max,
          mean: distribution.mean,
          nps: distribution.nps && distribution.nps.promoters + distribution.nps.passives + distribution.nps.detractors > 0 ? distribution.nps.score : null,
        }
      : null,
    quotes: [],
  };
}

/** A yes/no answer reads `yes`/`no`; a rating its number; an option its words. */
function valueText(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function mean(value: number | null): number | null {
  return value === null ? null : round(Number(value), 2);
}
