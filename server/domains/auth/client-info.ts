import type { Request } from 'express';
import type { ClientInfo } from './member-sessions.js';

/** The address (as trusted through TRUST_PROXY) and user agent a sign-in is recorded with. */
export function clientOf(req: Request): ClientInfo {
  return { ip: req.ip, userAgent: req.get('user-agent') };
}
