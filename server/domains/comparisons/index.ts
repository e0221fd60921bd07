/** What other domains may use of comparisons: how answers to a structured question are counted (campaign results show the same distributions). */
export { distributionOf, round, scriptQuestions, structuredQuestions } from './answer-distribution.js';
