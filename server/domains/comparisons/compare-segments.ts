import type { TCompareInput, TComparison, TComparisonSegment } from '../../../shared/schemas/comparisons.js';
import type { TQuestion } from '../../../shared/schemas/scripts.js';
import type { TAnswerValue } from '../../../shared/schemas/sessions.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import { notFound } from '../../errors.js';
import { distributionOf, round, share, structuredQuestions, type ValueCounts } from './answer-distribution.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { comparedCampaigns, comparedScriptVersions, segmentAnswers, segmentSentiments, segmentStats } from './queries.js';

/**
 * A comparison report: each segment's sessions, completion, durations, the sentiment of what
 * participants said (the effective one: a researcher's override wins) and the answers to the
 * script's structured questions as distributions. Five statements whatever the number of
 * segments and sessions: the campaigns, then per aspect one query over every segment.
 */
export async function compareSegments({ em }: Pick<Deps, 'em'>, caller: Caller, input: TCompareInput): Promise<TComparison> {
  const { organizationId } = caller;
  const campaignIds = [...new Set(input.segments.map((segment) => segment.campaignId))];
  const campaigns = await comparedCampaigns.rows(em, { organizationId, campaignIds });
  const campaignById = new Map(campaigns.map((campaign) => [campaign.id, campaign]));
  input.segments.forEach((segment, index) => {
    if (!campaignById.has(segment.campaignId)) throw notFound('campaign', segment.campaignId, `segments[${index}].campaignId`);
  });

  const compared = { organizationId, segments: input.segments };
  // Three independent reads of the same segments, side by side.
  const [stats, sentiments, answers] = await Promise.all([
    segmentStats.rows(em, compared),
    segmentSentiments.rows(em, compared),
    segmentAnswers.rows(em, compared),
  ]);

  const statsBySegment = new Map(stats.map((row) => [row.segment, row]));
  // The script versions each segment's sessions followed; the published one stands in for a segment without sessions.
  const versionsBySegment = input.segments.map((segment, index) => {
    const used = (statsBySegment.get(index)?.versions as [string, number][] | undefined) ?? [];
    const campaign = campaignById.get(segment.campaignId)!;
    return used.length > 0 ? used : campaign.published_version !== null ? [[campaign.script_id, campaign.published_version] as [string, number]] : [];
  });
  const wanted = [...new Map(versionsBySegment.flat().map((pair) => [`${pair[0]}@${pair[1]}`, pair])).values()];
  const versionRows = wanted.length === 0 ? [] : await comparedScriptVersions.rows(em, { organizationId, versions: wanted });
  const versionByKey = new Map(versionRows.map((row) => [`${row.script_id}@${row.version}`, { ...row, questions: row.questions as TQuestion[] }]));

  const segments = input.segments.map((segmentInput, index): TComparisonSegment => {
    const campaign = campaignById.get(segmentInput.campaignId)!;
    const row = statsBySegment.get(index);
    const started = row?.started ?? 0;
    const completed = row?.completed ?? 0;

    const sentimentCounts = { positive: 0, neutral: 0, negative: 0, unrated: 0 };
    for (const sentiment of sentiments.filter((entry) => entry.segment === index)) {
      sentimentCounts[(sentiment.sentiment as TSentiment | null) ?? 'unrated'] += sentiment.count;
    }
    const rated = sentimentCounts.positive + sentimentCounts.neutral + sentimentCounts.negative;

    const versions = versionsBySegment[index]!.map(([scriptId, version]) => versionByKey.get(`${scriptId}@${version}`)).filter(
      (version) => version !== undefined,
    );
    const answersOfSegment = answers.filter((answer) => answer.segment === index);
    const questions = structuredQuestions(versions).map((question) => {
      const values: ValueCounts = answersOfSegment
        .filter((answer) => answer.question_id === question.id)
        .map((answer) => ({ value: answer.value as TAnswerValue, count: answer.count }));
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
        shares: {
          positive: share(sentimentCounts.positive, rated),
          neutral: share(sentimentCounts.neutral, rated),
          negative: share(sentimentCounts.negative, rated),
        },
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
