import { z } from 'zod';
import { loadInvoice } from '../domains/billing/list-invoices.js';
import { toInvoiceDto } from '../domains/billing/serialize.js';
import type { Invoice } from '../entities/invoice.js';
import { renderInvoice } from '../reports/render-invoice.js';
import type { AppServices } from '../services.js';
import { sendPdf } from './send-pdf.js';
import { defineStreamOperation } from './stream-operation.js';

/** The service's name on invoices, as the operator of this installation. */
const ISSUER_NAME = 'Interview Service';

/** An invoice as a PDF (`GET /v1/billing/invoices/{id}/pdf`): the only billing answer that is not JSON. */
export const invoicePdfOperation = defineStreamOperation({
  method: 'GET',
  path: '/v1/billing/invoices/{invoiceId}/pdf',
  permission: 'billing:read',
  openapi: {
    operationId: 'billing-getInvoicePdf',
    tags: ['Billing'],
    summary: 'Get an invoice as a PDF',
    description: "The invoice with the organization's name, its lines and total, as an A4 PDF.",
    responses: { '200': { description: 'The invoice', content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } } } },
  },
  handler:
    (services) =>
    async ({ res, caller, path: { invoiceId } }) => {
      const invoice = await loadInvoice(services.orm.em.fork(), caller, { invoiceId });
      sendPdf(res, `${invoice.number}.pdf`, invoiceDocument(services, invoice));
    },
});

/** An invoice's PDF, as this operation and the dashboard's signed link (`invoice_pdf`) serve it. */
export function invoiceDocument(services: AppServices, invoice: Invoice): PDFKit.PDFDocument {
  return renderInvoice(
    {
      invoice: toInvoiceDto(invoice),
      organization: { id: invoice.organization.id, name: invoice.organization.name },
      issuer: { name: ISSUER_NAME, url: services.config.publicUrl },
    },
    { fallback: services.config.pdfFallbackFont },
  );
}
