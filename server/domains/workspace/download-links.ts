import type { EntityManager } from '@mikro-orm/postgresql';
import { type TSignedDownload, WORKSPACE_LINK_TTL_SECONDS } from '../../../shared/schemas/workspace.js';
import type { Sealer } from '../../lib/sealer.js';
import { loadInvoice } from '../billing/list-invoices.js';
import { loadSession } from '../sessions/load-session.js';

/** What a dashboard download link opens. */
export type DownloadTarget =
  | { kind: 'session_pdf'; organizationId: string; sessionId: string }
  | { kind: 'session_text'; organizationId: string; sessionId: string }
  | { kind: 'invoice_pdf'; organizationId: string; invoiceId: string };

/** Marks the sealed text as one of these links: nothing else sealed with the same key parses as one. */
const PURPOSE = 'dashboard-download/v1';

interface SealedClaims {
  purpose: typeof PURPOSE;
  target: DownloadTarget;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

/**
 * The dashboard's downloads (a session's PDF report or transcript text, an invoice's PDF) are
 * opened by the browser itself, which sends no access token: the link is the credential, as the
 * audio links are. The claims (organization, record, expiry) are sealed (AES-GCM, the service's
 * key), so they can be neither forged nor read; the record is checked to exist when signing.
 * `/app/downloads/{token}` (server/http/dashboard-routes.ts) opens them.
 */
export async function signDownload(em: EntityManager, services: { sealer: Sealer; publicUrl: string }, target: DownloadTarget, now = new Date()): Promise<TSignedDownload> {
  if (target.kind === 'invoice_pdf') await loadInvoice(em, target.organizationId, target.invoiceId);
  else await loadSession(em, target.organizationId, target.sessionId);
  const exp = Math.floor(now.getTime() / 1000) + WORKSPACE_LINK_TTL_SECONDS;
  const claims: SealedClaims = { purpose: PURPOSE, target, exp };
  const token = Buffer.from(services.sealer.seal(JSON.stringify(claims)), 'utf8').toString('base64url');
  return { url: `${services.publicUrl}/app/downloads/${token}`, expiresAt: new Date(exp * 1000).toISOString() };
}

/** The target of a valid, unexpired link; undefined for anything forged, expired or malformed. */
export function openDownload(sealer: Sealer, token: string, now = new Date()): DownloadTarget | undefined {
  if (!/^[A-Za-z0-9_-]{20,2000}$/.test(token)) return undefined;
  let claims: Partial<SealedClaims>;
  try {
    claims = JSON.parse(sealer.open(Buffer.from(token, 'base64url').toString('utf8'))) as Partial<SealedClaims>;
  } catch {
    return undefined;
  }
  if (claims.purpose !== PURPOSE || typeof claims.exp !== 'number' || claims.exp * 1000 <= now.getTime() || !claims.target) return undefined;
  return claims.target;
}
