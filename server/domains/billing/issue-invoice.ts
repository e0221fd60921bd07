import type { EntityManager } from '@mikro-orm/postgresql';
import type { TInvoiceLine } from '../../../shared/schemas/billing.js';
import { Invoice } from '../../entities/index.js';
import { newId, randomBase62 } from '../../lib/ids.js';
import type { BillingPeriod } from './billing-period.js';
import { nextInvoiceNumber } from './queries.js';

export interface InvoiceDraft {
  organizationId: string;
  kind: 'purchase' | 'usage';
  status: 'open' | 'paid';
  currency: string;
  period: BillingPeriod;
  lines: TInvoiceLine[];
  issuedAt: Date;
  paymentId: string | null;
  /** One invoice per (organization, source): `purchase:<paymentId>`, `period:<YYYY-MM>`. */
  source: string;
  /** Test mode: a test world's invoice is numbered apart (`TEST-<year>-…`), so live numbers keep no gaps. */
  testMode?: boolean;
}

/**
 * Issues an invoice inside the caller's transaction, which must hold the organization's row lock
 * (so a second issue for the same source waits, then finds the first). Numbers come from a
 * per-year counter in the same transaction: a rolled-back invoice gives its number back.
 */
export async function issueInvoice(tx: EntityManager, draft: InvoiceDraft): Promise<Invoice> {
  const existing = await tx.findOne(Invoice, { organization: draft.organizationId, source: draft.source });
  if (existing) return existing;
  const year = draft.issuedAt.getUTCFullYear();
  const number = draft.testMode
    ? `TEST-${year}-${randomBase62(10)}`
    : `INV-${year}-${String((await nextInvoiceNumber.first(tx, { year }))!.last_number).padStart(6, '0')}`;
  const invoice = tx.create(Invoice, {
    id: newId('ivc'),
    organization: draft.organizationId,
    number,
    kind: draft.kind,
    status: draft.status,
    amount: draft.lines.reduce((sum, line) => sum + line.amount, 0),
    currency: draft.currency,
    periodStart: draft.period.start,
    periodEnd: draft.period.end,
    lines: draft.lines,
    issuedAt: draft.issuedAt,
    paidAt: draft.status === 'paid' ? draft.issuedAt : null,
    paymentId: draft.paymentId,
    source: draft.source,
  });
  await tx.flush();
  return invoice;
}
