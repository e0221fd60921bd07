import { type TSignedDownload, WORKSPACE_LINK_TTL_SECONDS } from '../../../shared/schemas/workspace.js';
import type { SignedFilePurpose, UrlSigner } from '../../lib/signed-urls.js';
import type { AppServices } from '../../services.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadInvoice } from '../billing/index.js';
import { loadSession } from '../sessions/index.js';

/**
 * The dashboard's downloads (a session's PDF report or transcript text, an invoice's PDF) are
 * opened by the browser itself, which sends no access token: they are the service's signed links
 * (`/files/{token}`, server/http/file-downloads.ts), as the audio links are, valid one hour. The
 * caller's organization is checked here, before signing: the link names only the record.
 */
type SigningDeps = Pick<Deps, 'em'> & { services: Pick<AppServices, 'signer'> };

export async function signSessionDownload(
  { em, services }: SigningDeps,
  caller: Caller,
  input: { sessionId: string; format: 'pdf' | 'text' },
): Promise<TSignedDownload> {
  await loadSession(em, caller, { sessionId: input.sessionId });
  return signedDownload(services.signer, input.format === 'pdf' ? 'session_report_pdf' : 'session_transcript_text', input.sessionId);
}

export async function signInvoiceDownload({ em, services }: SigningDeps, caller: Caller, input: { invoiceId: string }): Promise<TSignedDownload> {
  await loadInvoice(em, caller, { invoiceId: input.invoiceId });
  return signedDownload(services.signer, 'invoice_pdf', input.invoiceId);
}

async function signedDownload(signer: UrlSigner, purpose: SignedFilePurpose, id: string): Promise<TSignedDownload> {
  const link = await signer.signFileLink({ fileId: id, purpose }, WORKSPACE_LINK_TTL_SECONDS);
  return { url: link.url, expiresAt: link.expiresAt.toISOString() };
}
