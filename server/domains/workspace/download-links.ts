import type { EntityManager } from '@mikro-orm/postgresql';
import { type TSignedDownload, WORKSPACE_LINK_TTL_SECONDS } from '../../../shared/schemas/workspace.js';
import type { SignedFilePurpose, UrlSigner } from '../../lib/signed-urls.js';
import { loadInvoice } from '../billing/index.js';
import { loadSession } from '../sessions/load-session.js';

/**
 * The dashboard's downloads (a session's PDF report or transcript text, an invoice's PDF) are
 * opened by the browser itself, which sends no access token: they are the service's signed links
 * (`/files/{token}`, server/http/file-downloads.ts), as the audio links are, valid one hour. The
 * caller's organization is checked here, before signing: the link names only the record.
 */
export async function signSessionDownload(em: EntityManager, signer: UrlSigner, organizationId: string, sessionId: string, format: 'pdf' | 'text'): Promise<TSignedDownload> {
  await loadSession(em, organizationId, sessionId);
  return signedDownload(signer, format === 'pdf' ? 'session_report_pdf' : 'session_transcript_text', sessionId);
}

export async function signInvoiceDownload(em: EntityManager, signer: UrlSigner, organizationId: string, invoiceId: string): Promise<TSignedDownload> {
  await loadInvoice(em, { organizationId }, { invoiceId });
  return signedDownload(signer, 'invoice_pdf', invoiceId);
}

async function signedDownload(signer: UrlSigner, purpose: SignedFilePurpose, id: string): Promise<TSignedDownload> {
  const link = await signer.signFileLink({ fileId: id, purpose }, WORKSPACE_LINK_TTL_SECONDS);
  return { url: link.url, expiresAt: link.expiresAt.toISOString() };
}
