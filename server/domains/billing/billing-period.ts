/** A billing period: a calendar month in UTC, `end` exclusive. */
export interface BillingPeriod {
  start: Date;
  end: Date;
}

export function billingPeriodOf(instant: Date): BillingPeriod {
  const start = new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), 1));
  return { start, end: new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)) };
}

/** `2026-11`: names a period in ledger and invoice sources. */
export function periodLabel(period: BillingPeriod): string {
  return period.start.toISOString().slice(0, 7);
}
