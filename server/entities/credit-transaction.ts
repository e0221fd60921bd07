import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';

/**
 * The credit ledger: one row per grant, purchase or charge. `source` is unique per
 * organization so a retried job or request can never book the same movement twice.
 */
export const CreditTransaction = defineEntity({
  name: 'CreditTransaction',
  tableName: 'credit_transactions',
  uniques: [{ properties: ['organization', 'source'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    kind: p.enum(['plan_included', 'grant', 'purchase', 'charge', 'adjustment'] as const),
    amount: p.decimal('number').precision(14).scale(4),
    balanceAfter: p.decimal('number').precision(14).scale(4),
    source: p.string().columnType('text').nullable(),
    description: p.string().columnType('text').nullable(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
  },
});

export type CreditTransaction = InferEntity<typeof CreditTransaction>;
