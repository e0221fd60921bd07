import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCompareInput, TComparison, TComparisonSegment } from '../../../shared/schemas/comparisons.js';
import type { TQuestion } from '../../../shared/schemas/scripts.js';
import type { TAnswerValue } from '../../../shared/schemas/sessions.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import { queryRows, sql } from '../../db/sql.js';
import { notFound } from '../../errors.js';
import { distributionOf, round, share, structuredQuestions, type ValueCounts } from './answer-distribution.js';
import { segmentSessionsSql } from './segment-sessions.js';

interface CampaignRow {
  id: string;
  name: string;
  script_id: string;
  published_version: number | null;
}

interface StatsRow {
  segment: number;
  started: number;
  completed: number;
  timed_out: number;
  abandoned: number;
  in_progress: number;
  measured: number;
  mean: number | null;
  median: number | null;
  p90: number | null;
  versions: [string, number][];
}

interface SentimentRow {
  segment: number;
  sentiment: TSentiment | null;
  count: number;
}

interface AnswerRow {
  segment: number;
  question_id: string;
  value: TAnswerValue;
  count: number;
}

interface VersionRow {
  script_id: string;
  version: number;
  questions: TQuestion[];
}

/**
 * A comparison report: each segment's sessions, completion, durations, the sentiment of what
 * participants said (the effective one: a researcher's override wins) and the answers to the
 * script's structured questions as distributions. Five statements whatever the number of
 * segments and sessions: the campaigns, then per aspect one query over every segment.
 */
export async function compareSegments(em: EntityManager, organizationId: string, input: TCompareInput): Promise<TComparison> {
  const campaignIds = [...new Set(input.segments.map((segment) => segment.campaignId))];
  const campaigns = await queryRows<CampaignRow>(
    em,
    sql`select c.id, c.name, c.script_id, sc.published_version
          from campaigns c join scripts sc on sc.id = c.script_id
         where c.organization_id = ${organizationId} and not c.preview and c.id in (select jsonb_array_elements_text(${JSON.stringify(campaignIds)}::jsonb))`,
  );
  const campaignById = new Map(campaigns.map((campaign) => [campaign.id, campaign]));
  input.segments.forEach((segment, index) => {
    if (!campaignById.has(segment.campaignId)) throw notFound('campaign', segment.campaignId, `segments[${index}].campaignId`);
  });

  const segmentSessions = segmentSessionsSql(organizationId, input.segments);
  // Three independent reads of the same segments, side by side.
  const [stats, sentiments, answers] = await Promise.all([
    queryRows<StatsRow>(
      em,
      sql`with seg as (${segmentSessions})
          select segment,
                 count(*)::int as started,
                 count(*) filter (where status = 'completed')::int as completed,
                 count(*) filter (where completion_status = 'timed_out')::int as timed_out,
                 count(*) filter (where status = 'abandoned')::int as abandoned,
                 count(*) filter (where status in ('created', 'in_progress', 'paused'))::int as in_progress,
                 count(*) filter (where status = 'completed')::int as measured,
                 (avg(duration_seconds) filter (where status = 'completed'))::float8 as mean,
                 percentile_cont(0.5) within group (order by duration_seconds) filter (where status = 'completed') as median,
                 percentile_cont(0.9) within group (order by duration_seconds) filter (where status = 'completed') as p90,
                 jsonb_agg(distinct jsonb_build_array(script_id, script_version)) as versions
            from seg group by segment`,
    ),
    queryRows<SentimentRow>(
      em,
      sql`with seg as (${segmentSessions})
          select seg.segment, coalesce(u.sentiment_override, u.sentiment) as sentiment, count(*)::int as count
            from seg join session_utterances u on u.session_id = seg.id
           where u.speaker = 'participant' and u.text is not null
           group by 1, 2`,
    ),
    queryRows<AnswerRow>(
      em,
      sql`with seg as (${segmentSessions})
          select seg.segment, a.answer->>'questionId' as question_id, a.answer->'value' as value, count(*)::int as count
            from seg cross join lateral jsonb_array_elements(seg.answers) as a(answer)
           group by 1, 2, 3`,
    ),
  ]);

  const statsBySegment = new Map(stats.map((row) => [row.segment, row]));
  // The script versions each segment's sessions followed; the published one stands in for a segment without sessions.
  const versionsBySegment = input.segments.map((segment, index) => {
    const used = statsBySegment.get(index)?.versions ?? [];
    const campaign = campaignById.get(segment.campaignId)!;
    return used.length > 0 ? used : campaign.published_version !== null ? [[campaign.script_id, campaign.published_version] as [string, number]] : [];
  });
  const wanted = [...new Map(versionsBySegment.flat().map((pair) => [`${pair[0]}@${pair[1]}`, pair])).values()];
  const versionRows =
    wanted.length === 0
      ? []
      : await queryRows<VersionRow>(
          em,
          sql`select sv.script_id, sv.version, sv.questions
                from script_versions sv join scripts sc on sc.id = sv.script_id
               where sc.organization_id = ${organizationId}
                 and (sv.script_id, sv.version) in (select p->>0, (p->>1)::int from jsonb_array_elements(${JSON.stringify(wanted)}::jsonb) as p)`,
        );
  const versionByKey = new Map(versionRows.map((row) => [`${row.script_id}@${row.version}`, row]));

  const segments = input.segments.map((segmentInput, index): TComparisonSegment => {
    const campaign = campaignById.get(segmentInput.campaignId)!;
    const row = statsBySegment.get(index);
    const started = row?.started ?? 0;
    const completed = row?.completed ?? 0;

    const sentimentCounts = { positive: 0, neutral: 0, negative: 0, unrated: 0 };
    for (const sentiment of sentiments.filter((entry) => entry.segment === index)) {
      sentimentCounts[sentiment.sentiment ?? 'unrated'] += sentiment.count;
    }
    const rated = sentimentCounts.positive + sentimentCounts.neutral + sentimentCounts.negative;

    const versions = versionsBySegment[index]!.map(([scriptId, version]) => versionByKey.get(`${scriptId}@${version}`)).filter((version) => version !== undefined);
    const segmentAnswers = answers.filter((answer) => answer.segment === index);
    const questions = structuredQuestions(versions).map((question) => {
      const values: ValueCounts = segmentAnswers.filter((answer) => answer.question_id === question.id).map((answer) => ({ value: answer.value, count: answer.count }));
      return distributionOf(question, values);
    });

    const { label, campaignId: _campaignId, ...filters } = segmentInput;
    return {
      index,
      label: label ?? campaign.name,
      campaignId: campaign.id,
      campaignName: campaign.name,
      scriptId: campaign.script_id,
      filters,
      sessions: {
        started,
        completed,
        timedOut: row?.timed_out ?? 0,
        abandoned: row?.abandoned ?? 0,
        inProgress: row?.in_progress ?? 0,
        completionRate: share(completed, started),
      },
      duration: {
        count: row?.measured ?? 0,
        mean: roundOrNull(row?.mean),
        median: roundOrNull(row?.median),
        p90: roundOrNull(row?.p90),
      },
      sentiment: {
        ...sentimentCounts,
        shares: { positive: share(sentimentCounts.positive, rated), neutral: share(sentimentCounts.neutral, rated), negative: share(sentimentCounts.negative, rated) },
      },
      questions,
    };
  });

  const aligned = new Map<string, TComparison['questions'][number]>();
  for (const segment of segments) {
    for (const question of segment.questions) {
      const entry = aligned.get(question.questionId) ?? { questionId: question.questionId, text: question.text, type: question.type, segments: [] };
      entry.segments.push(segment.index);
      aligned.set(question.questionId, entry);
    }
  }

  return {
    segments,
    questions: [...aligned.values()],
    sameScript: new Set(segments.map((segment) => segment.scriptId)).size === 1,
    generatedAt: new Date().toISOString(),
  };
}

function roundOrNull(value: number | null | undefined): number | null {
  return value === null || value === undefined ? null : round(Number(value), 1);
}
