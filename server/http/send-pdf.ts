import type { Response } from 'express';

/**
 * Streams a PDF as it is drawn, as an attachment named `filename`. The headers are gone once the
 * first bytes are: an error while drawing ends the response, which the client sees as cut short.
 */
export function sendPdf(res: Response, filename: string, document: PDFKit.PDFDocument): void {
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  document.on('error', (error: Error) => res.destroy(error));
  document.pipe(res);
}
