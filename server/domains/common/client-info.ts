import type { Request } from 'express';

/** The client a sign-in is recorded with: its address and user agent. */
export interface ClientInfo {
  ip: string | undefined;
  userAgent: string | undefined;
}

/**
 * The address (as trusted through TRUST_PROXY) and user agent of a request. Here rather than in
 * auth because both the auth and the members routers sign members in (members.acceptInvitation).
 */
export function clientOf(req: Request): ClientInfo {
  return { ip: req.ip, userAgent: req.get('user-agent') };
}
