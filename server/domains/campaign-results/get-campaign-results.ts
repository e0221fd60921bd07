import type { TCampaignResults, TCampaignResultsInput, TQuestionResult } from '../../../shared/schemas/campaign-results.js';
import type { TQuestion, TStructuredQuestionType } from '../../../shared/schemas/scripts.js';
import type { TAnswerValue } from '../../../shared/schemas/sessions.js';
import { distributionOf, round, scriptQuestions, structuredQuestions } from '../comparisons/index.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadResultsCampaign } from './load-results-campaign.js';
import { campaignResultAnswers, campaignResultFacets, campaignResultFeedback, campaignResultFunnel, campaignResultOpenAnswers } from './queries.js';

type AnswerRow = { question_id: string; value: TAnswerValue; count: number };

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
export async function getCampaignResults({ em }: Pick<Deps, 'em'>, caller: Caller, input: TCampaignResultsInput): Promise<TCampaignResults> {
  const { organizationId } = caller;
  const filter = input.filter ?? {};
  const campaign = await loadResultsCampaign(em, caller, input);

  const scope = { organizationId, campaignId: campaign.id, filter };
  const [facets, funnel, answerRows, openAnswerRows, feedback] = await Promise.all([
    // Campaign-wide, whatever the filter: the picker offers every segment, and two panels side by side list the same questions.
    campaignResultFacets.first(em, { organizationId, campaign }),
    campaignResultFunnel.first(em, scope),
    campaignResultAnswers.rows(em, scope),
    campaignResultOpenAnswers.rows(em, scope),
    campaignResultFeedback.first(em, scope),
  ]);
  const versions = facets!.versions as { version: number; questions: TQuestion[] }[];
  const answers = answerRows as AnswerRow[];
  const openAnswers = openAnswerRows as { question_id: string; answered: number; unreadable: number; quotes: TQuestionResult['quotes'] }[];

  const structured = new Map(structuredQuestions(versions).map((question) => [question.id, question]));
  // In the script's order, open questions among the others; an id that was ever structured counts as structured.
  const questions = scriptQuestions(versions).flatMap((question): TQuestionResult[] => {
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
      comments: feedback!.comments as TCampaignResults['feedback']['comments'],
    },
    segmentKeys: facets!.segment_keys as TCampaignResults['segmentKeys'],
    languages: facets!.languages as string[],
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
