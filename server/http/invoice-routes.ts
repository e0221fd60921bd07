import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { loadInvoice } from '../domains/billing/list-invoices.js';
import { toInvoiceDto } from '../domains/billing/serialize.js';
import type { Invoice } from '../entities/invoice.js';
import { renderInvoice } from '../reports/render-invoice.js';
import type { AppServices } from '../services.js';
import { assertPermission } from '../trpc/context.js';
import { pathIdOf, queryOf } from './plain-inputs.js';
import { sendPdf } from './send-pdf.js';

/** The service's name on invoices, as the operator of this installation. */
const ISSUER_NAME = 'Interview Service';

/** An invoice as a PDF (`GET /v1/billing/invoices/{id}/pdf`): the only billing answer that is not JSON. */
export function invoiceRoutes(services: AppServices): Router {
  const routes = Router({ caseSensitive: true, strict: true });
  routes.get('/v1/billing/invoices/:invoiceId/pdf', async (req: Request, res: Response) => {
    const auth = assertPermission(req.auth, 'billing:read');
    queryOf(req, z.strictObject({}));
    const invoice = await loadInvoice(services.orm.em.fork(), auth, { invoiceId: pathIdOf(req, 'invoiceId') });
    sendPdf(res, `${invoice.number}.pdf`, invoiceDocument(services, invoice));
  });
  return routes;
}

/** An invoice's PDF, as this route and the dashboard's signed link (`invoice_pdf`) serve it. */
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

export const invoiceOpenApiPaths = {
  '/v1/billing/invoices/{invoiceId}/pdf': {
    get: {
      operationId: 'billing-getInvoicePdf',
      tags: ['Billing'],
      summary: 'Get an invoice as a PDF',
      description: "The invoice with the organization's name, its lines and total, as an A4 PDF.",
      requestParams: { path: z.object({ invoiceId: z.string() }) },
      responses: { '200': { description: 'The invoice', content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } } } },
      'x-permission': 'billing:read',
    },
  },
};
