import type { EntityManager } from '@mikro-orm/postgresql';
import type { TInvoice } from '../../../shared/schemas/billing.js';
import type { Page } from '../../../shared/schemas/common.js';
import { Invoice } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Caller, OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { findPage, type PageRequest, pageFrom } from '../common/keyset-page.js';
import { toInvoiceDto } from './serialize.js';

/** `GET /v1/billing/invoices`: newest first. */
export async function listInvoices({ em }: Pick<Deps, 'em'>, caller: Caller, input: PageRequest): Promise<Page<TInvoice>> {
  const page = await findPage(em, Invoice, { organization: caller.organizationId }, input, undefined, { disableIdentityMap: true });
  return pageFrom(page, page.items.map(toInvoiceDto));
}

/** `GET /v1/billing/invoices/{invoiceId}`. */
export async function getInvoice({ em }: Pick<Deps, 'em'>, caller: Caller, input: { invoiceId: string }): Promise<TInvoice> {
  return toInvoiceDto(await loadInvoice(em, caller, input));
}

/** One invoice of the scope's organization; another organization's is 404. */
export async function loadInvoice(em: EntityManager, scope: OrganizationScope, input: { invoiceId: string }): Promise<Invoice> {
  const invoice = await em.findOne(Invoice, { id: input.invoiceId, organization: scope.organizationId }, { populate: ['organization'] });
  if (!invoice) throw notFound('invoice', input.invoiceId);
  return invoice;
}
