import type { Response } from 'express';

/**
 * Sends a PDF as an attachment named `filename`: bytes already rendered (a session report, made
 * off the event loop), or a document streamed as it is drawn (an invoice, a page or two). Once a
 * stream's first bytes are out the headers are gone: an error while drawing ends the response,
 * which the client sees as cut short.
 */
export function sendPdf(res: Response, filename: string, pdf: Buffer | PDFKit.PDFDocument): void {
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  if (Buffer.isBuffer(pdf)) {
    res.setHeader('Content-Length', String(pdf.length));
    res.end(pdf);
    return;
  }
  pdf.on('error', (error: Error) => res.destroy(error));
  pdf.pipe(res);
}
