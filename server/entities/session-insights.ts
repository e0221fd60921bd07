import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';
import { Session } from './session.js';

/** design.md "Insights" of one session, made once from its transcript by `session__generate_insights`. */
export const SessionInsights = defineEntity({
  name: 'SessionInsights',
  tableName: 'session_insights',
  properties: {
    session: () => p.oneToOne(Session).owner().primary().deleteRule('cascade'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade').index(),
    summary: p.string().columnType('text'),
    keyQuotes: p.json<{ text: string; utteranceId: string }[]>(),
    actionItems: p.json<string[]>(),
    topics: p.json<{ label: string; utteranceIds: string[] }[]>(),
    /** `builtin` (extractive, no network) or `llm`. */
    generatedBy: p.enum(['builtin', 'llm'] as const),
    /** Participant answers left out as heard with low confidence and never confirmed or corrected (Migration20261129030000HeardChecks). */
    excludedLowConfidence: p.integer().default(0),
    generatedAt: p.datetime(3),
  },
});

export type SessionInsights = InferEntity<typeof SessionInsights>;
