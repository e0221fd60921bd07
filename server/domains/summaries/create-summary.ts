import type { EntityManager } from '@mikro-orm/postgresql';
import { SUMMARY_LIMITS, type TCreateSummaryInput, type TSummary } from '../../../shared/schemas/summaries.js';
import type { TQuestion } from '../../../shared/schemas/scripts.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import { ChatCompletions, ChatFailure, type LlmLogger } from '../../ai/chat-completions.js';
import { summarizeSessionSetWithLlm } from '../../analysis/llm-session-set-summary.js';
import { PII_KINDS } from '../../../shared/schemas/pii.js';
import { SessionRedactor } from '../../analysis/pii-redaction.js';
import { type SessionSetSummary, summarizeSessionSet, type SummaryUtterance } from '../../analysis/session-set-summary.js';
import type { Config } from '../../config.js';
import type { RowOf } from '../../db/query.js';
import { notFound } from '../../errors.js';
import type { Caller, OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { answeredUtterances, askedScriptVersions, newestAnsweredSessions, summarizableCampaign, summarizableSessionIds } from './queries.js';

/** What a summary needs of the app's services. */
export interface SummaryServices {
  config: Pick<Config, 'llm'>;
  logger?: LlmLogger;
}

type UtteranceRow = Omit<RowOf<typeof answeredUtterances.columns>, 'keywords' | 'sentiment'> & { keywords: string[] | null; sentiment: TSentiment | null };

/** One client per LLM configuration: it remembers request fields the endpoint refused. */
const clients = new WeakMap<NonNullable<Config['llm']>, ChatCompletions>();

function chatFor(llm: NonNullable<Config['llm']>, logger: LlmLogger | undefined): ChatCompletions {
  let chat = clients.get(llm);
  if (!chat) {
    chat = new ChatCompletions({
      ...llm,
      timeoutMs: llm.analysisTimeoutMs,
      onFieldRefused: (field, status) =>
        logger?.warn({ provider: 'llm', field, status }, `LLM endpoint refused ${field}; sending summary requests without it from now on`),
    });
    clients.set(llm, chat);
  }
  return chat;
}

/**
 * An AI summary across a set of sessions: the LLM when one is configured (it reads the answers
 * with PII redacted), the built-in extractive method otherwise or when the LLM fails (`method`
 * and `fallbackReason` say which). Nothing is stored: each call reads the sessions as they are
 * now, manual redactions and sentiment overrides included. No session with participant answers
 * gives an empty summary (`sessionCount` 0), not an error.
 */
export async function createSummary(
  { em, services }: Pick<Deps, 'em'> & { services: SummaryServices },
  caller: Caller,
  input: TCreateSummaryInput,
): Promise<TSummary> {
  const { organizationId } = caller;
  const { llm } = services.config;
  const { sessionIds, capped } = await resolveSessions(em, caller, input);
  const rows = sessionIds.length === 0 ? [] : ((await answeredUtterances.rows(em, { organizationId, sessionIds })) as UtteranceRow[]);
  // Words that may not be what was said (heard with low confidence, never confirmed or corrected) are left out, and counted.
  const utterances = redacted(rows.filter((row) => row.heard_check !== 'unclear'));
  const excludedLowConfidence = rows.length - utterances.length;
  const sessionCount = new Set(utterances.map((utterance) => utterance.sessionId)).size;
  const generatedAt = new Date().toISOString();
  if (sessionCount === 0)
    return { method: 'extractive', fallbackReason: null, summary: '', themes: [], sessionCount: 0, excludedLowConfidence, capped, generatedAt };

  let result: SessionSetSummary | undefined;
  let fallbackReason: string | null = null;
  if (llm) {
    try {
      result = await summarizeSessionSetWithLlm(chatFor(llm, services.logger), utterances, await questionTexts(em, caller, { sessionIds }));
    } catch (error) {
      const failure = ChatFailure.from(error);
      fallbackReason = failure.reason;
      try {
        services.logger?.warn(
          { provider: 'llm', model: llm.model, reason: failure.reason, ...failure.detail, sessionCount },
          'LLM summary failed; the built-in extractive summary stands in',
        );
      } catch {
        // A broken logger must not turn a summary into an error.
      }
    }
  }
  const method = result ? 'llm' : 'extractive';
  result ??= await summarizeSessionSet(utterances);
  return { method, fallbackReason, summary: result.summary, themes: result.themes, sessionCount, excludedLowConfidence, capped, generatedAt };
}

/** The sessions to read: the ids given (each must be the organization's), or a campaign's newest answered ones. */
async function resolveSessions(em: EntityManager, scope: OrganizationScope, input: TCreateSummaryInput): Promise<{ sessionIds: string[]; capped: boolean }> {
  const { organizationId } = scope;
  if (input.sessionIds) {
    const wanted = [...new Set(input.sessionIds)];
    // A preview is not a result to summarize: 404 like an unknown id.
    const found = await summarizableSessionIds.rows(em, { organizationId, sessionIds: wanted });
    const known = new Set(found.map((row) => row.id));
    const missing = input.sessionIds.findIndex((id) => !known.has(id));
    if (missing >= 0) throw notFound('session', input.sessionIds[missing]!, `sessionIds[${missing}]`);
    return { sessionIds: wanted, capped: false };
  }
  const campaignId = input.campaignId!;
  const campaign = await summarizableCampaign.first(em, { organizationId, campaignId });
  if (!campaign) throw notFound('campaign', campaignId, 'campaignId');
  const rows = await newestAnsweredSessions.rows(em, { organizationId, campaignId, from: input.from, to: input.to });
  return { sessionIds: rows.slice(0, SUMMARY_LIMITS.maxSessions).map((row) => row.id), capped: rows.length > SUMMARY_LIMITS.maxSessions };
}

/**
 * The utterances as the summary may show and send them: PII of every kind replaced session by
 * session (people's names and postal addresses too: a summary is about what was said, and the
 * answers go to an outside model), an item found anywhere in a session wherever it recurs there;
 * keywords that touch PII dropped.
 */
function redacted(rows: UtteranceRow[]): SummaryUtterance[] {
  const textsBySession = new Map<string, string[]>();
  for (const row of rows) {
    const texts = textsBySession.get(row.session_id);
    if (texts) texts.push(row.text);
    else textsBySession.set(row.session_id, [row.text]);
  }
  const redactors = new Map([...textsBySession].map(([sessionId, texts]) => [sessionId, new SessionRedactor(texts, PII_KINDS)]));
  return rows.map((row) => {
    const redactor = redactors.get(row.session_id)!;
    return {
      id: row.id,
      sessionId: row.session_id,
      questionId: row.question_id,
      text: redactor.utterance(row.text),
      keywords: row.keywords === null ? null : redactor.keywords(row.text, row.keywords),
      sentiment: row.sentiment,
      language: row.language,
    };
  });
}

/** The questions the sessions were asked (id → text, the newest wording), for the model's context. */
async function questionTexts(em: EntityManager, scope: OrganizationScope, input: { sessionIds: string[] }): Promise<Map<string, string>> {
  const rows = await askedScriptVersions.rows(em, { organizationId: scope.organizationId, sessionIds: input.sessionIds });
  return new Map(rows.flatMap((row) => (row.questions as TQuestion[]).map((question) => [question.id, question.text] as const)));
}
