import type { TInvoice } from '../../../shared/schemas/billing.js';
import type { Invoice } from '../../entities/index.js';

export function toInvoiceDto(invoice: Invoice): TInvoice {
  return {
    id: invoice.id,
    number: invoice.number,
    status: invoice.status,
    kind: invoice.kind,
    amount: Number(invoice.amount),
    currency: invoice.currency,
    periodStart: invoice.periodStart.toISOString(),
    periodEnd: invoice.periodEnd.toISOString(),
    lines: invoice.lines,
    issuedAt: invoice.issuedAt.toISOString(),
    paidAt: invoice.paidAt?.toISOString() ?? null,
    createdAt: invoice.createdAt.toISOString(),
    updatedAt: invoice.updatedAt.toISOString(),
  };
}

/** Credits are kept to 4 decimals, as the ledger stores them. */
export function roundCredits(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** What `credits` credits cost at `pricePerCreditMinor`, in whole minor units (half up). */
export function priceOfCredits(credits: number, pricePerCreditMinor: number): number {
  return Math.round(roundCredits(credits) * pricePerCreditMinor);
}
