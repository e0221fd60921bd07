import type { EntityManager } from '@mikro-orm/postgresql';
import type { TInvoice } from '../../../shared/schemas/billing.js';
import type { Page } from '../../../shared/schemas/common.js';
import { Invoice } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { findPage, type PageRequest, pageFrom } from '../common/keyset-page.js';
import { toInvoiceDto } from './serialize.js';

/** `GET /v1/billing/invoices`: newest first. */
export async function listInvoices(em: EntityManager, organizationId: string, input: PageRequest): Promise<Page<TInvoice>> {
  const page = await findPage(em, Invoice, { organization: organizationId }, input, undefined, { disableIdentityMap: true });
  return pageFrom(page, page.items.map(toInvoiceDto));
}

/** One invoice of the organization; another organization's is 404. */
export async function loadInvoice(em: EntityManager, organizationId: string, invoiceId: string): Promise<Invoice> {
  const invoice = await em.findOne(Invoice, { id: invoiceId, organization: organizationId }, { populate: ['organization'] });
  if (!invoice) throw notFound('invoice', invoiceId);
  return invoice;
}
