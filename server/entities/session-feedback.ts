import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';
import { Session } from './session.js';

/** The participant's feedback after the interview: at most one per session. */
export const SessionFeedback = defineEntity({
  name: 'SessionFeedback',
  tableName: 'session_feedback',
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade').index(),
    session: () => p.oneToOne(Session).owner().deleteRule('cascade').unique(),
    overallRating: p.integer().nullable(),
    easeOfUseRating: p.integer().nullable(),
    audioQualityRating: p.integer().nullable(),
    questionClarityRating: p.integer().nullable(),
    comments: p.string().columnType('text').nullable(),
    technicalIssues: p.string().columnType('text').nullable(),
    wouldRecommend: p.boolean().nullable(),
    submittedAt: p.datetime(3),
  },
});

export type SessionFeedback = InferEntity<typeof SessionFeedback>;
