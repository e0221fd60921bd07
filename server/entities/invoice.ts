import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { INVOICE_STATUSES, type TInvoiceLine } from '../../shared/schemas/billing.js';
import { timestampProperties } from './base.js';
import { Organization } from './organization.js';

/**
 * An invoice: one per credit purchase (paid at once) and one per billing period with minutes owed.
 * `source` is unique per organization (`purchase:<paymentId>`, `period:<YYYY-MM>`), so a retried
 * purchase or a rollover run twice never issues two.
 */
export const Invoice = defineEntity({
  name: 'Invoice',
  tableName: 'invoices',
  uniques: [{ properties: ['organization', 'source'] }],
  indexes: [{ properties: ['organization', 'createdAt'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    number: p.string().columnType('text').unique(),
    kind: p.enum(['purchase', 'usage'] as const),
    status: p.enum([...INVOICE_STATUSES]),
    /** Minor units (cents). */
    amount: p.bigint('number'),
    currency: p.string().columnType('text'),
    periodStart: p.datetime(3),
    periodEnd: p.datetime(3),
    lines: p.json<TInvoiceLine[]>(),
    issuedAt: p.datetime(3),
    paidAt: p.datetime(3).nullable(),
    /** The payment at the provider (a purchase). */
    paymentId: p.string().columnType('text').nullable(),
    source: p.string().columnType('text'),
    ...timestampProperties,
  },
});

export type Invoice = InferEntity<typeof Invoice>;

/** Invoice numbers run per calendar year: `INV-2026-000001`, … without gaps between committed ones. */
export const InvoiceNumberCounter = defineEntity({
  name: 'InvoiceNumberCounter',
  tableName: 'invoice_number_counters',
  properties: {
    year: p.integer().primary().autoincrement(false),
    lastNumber: p.integer(),
  },
});

export type InvoiceNumberCounter = InferEntity<typeof InvoiceNumberCounter>;
