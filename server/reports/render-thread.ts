import { parentPort } from 'node:worker_threads';
import { renderSessionReport } from './render-session-report.js';
import type { RenderReply, RenderRequest } from './report-renderer.js';

/**
 * The report rendering thread (report-renderer.ts): renders each request in turn and answers
 * with the PDF's bytes, transferred rather than copied.
 */
parentPort!.on('message', (request: RenderRequest) => {
  void render(request).then(
    (pdf) => parentPort!.postMessage({ id: request.id, pdf } satisfies RenderReply, [pdf.buffer as ArrayBuffer]),
    (error: unknown) =>
      parentPort!.postMessage({
        id: request.id,
        error: error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) },
      } satisfies RenderReply),
  );
});

async function render({ report, options, fonts }: RenderRequest): Promise<Uint8Array> {
  // Structured cloning turned the logo's Buffer into a Uint8Array; pdfkit reads images from Buffers.
  const logo = report.organization.logo;
  const cloned = { ...report, organization: { ...report.organization, logo: logo ? Buffer.from(logo) : null } };
  const document = renderSessionReport(cloned, options, fonts);
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', resolve);
    document.on('error', reject);
  });
  // A fresh copy: its ArrayBuffer holds only this PDF, so transferring it sends nothing else.
  return new Uint8Array(Buffer.concat(chunks));
}
