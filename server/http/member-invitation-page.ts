import express, { type Request, type Response, Router } from 'express';
import { PASSWORD_LIMITS } from '../../shared/members.js';
import { clientOf } from '../domains/common/client-info.js';
import { acceptInvitation, findOpenInvitation } from '../domains/members/accept-invitation.js';
import { AppError } from '../errors.js';
import { escapeHtml } from '../lib/html.js';
import { FAVICON_LINK } from './favicon-routes.js';
import { findUnstorableText } from '../lib/text-safety.js';
import { consumeRateLimit, setRateLimitHeaders } from '../platform/rate-limit.js';
import type { AppServices } from '../services.js';

const CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function page(res: Response, status: number, title: string, body: string): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', CSP);
  // The token is in the URL: never sent on as a Referer, never cached.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.send(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${FAVICON_LINK}
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;background:#f4f5f7;font:16px/1.5 -apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1f2328}
main{max-width:420px;margin:48px auto;background:#fff;border-radius:8px;padding:24px 32px}
label{display:block;margin:16px 0 4px;font-weight:600}
input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #8c959f;border-radius:6px;font:inherit}
button{margin-top:24px;padding:12px 24px;background:#1d4ed8;color:#fff;border:0;border-radius:6px;font:inherit;font-weight:600;cursor:pointer}
.error{color:#b42318;font-weight:600}a.button{display:inline-block;margin-top:16px;padding:12px 24px;background:#1d4ed8;color:#fff;border-radius:6px;font-weight:600;text-decoration:none}a.button:focus-visible{outline:3px solid #1f2328;outline-offset:2px}.hint{color:#57606a;font-size:14px}
</style></head><body><main>${body}</main></body></html>`);
}

function invalidPage(res: Response): void {
  page(res, 404, 'Invitation not valid', '<h1>This invitation is not valid</h1><p>The link is unknown, already used or expired. Ask for a new invitation.</p>');
}

function formPage(res: Response, status: number, view: { token: string; organization: string; email: string; name: string; error?: string }): void {
  page(
    res,
    status,
    `Join ${view.organization}`,
    `<h1>Join ${escapeHtml(view.organization)}</h1>
<p>Choose a password for <strong>${escapeHtml(view.email)}</strong>.</p>
${view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : ''}
<form method="post" action="/members/accept">
<input type="hidden" name="token" value="${escapeHtml(view.token)}">
<label for="name">Your name</label><input id="name" name="name" autocomplete="name" maxlength="100" value="${escapeHtml(view.name)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_LIMITS.minLength}" maxlength="${PASSWORD_LIMITS.maxLength}" aria-describedby="password-hint">
<p class="hint" id="password-hint">At least ${PASSWORD_LIMITS.minLength} characters.</p>
<label for="confirm">Password again</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<button type="submit">Accept the invitation</button>
</form>`,
  );
}

function field(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Where a member invitation's link leads: a form (no script) to choose a password. Accepting
 * goes through the same domain function as the tRPC `members.acceptInvitation`.
 */
export function memberInvitationPageRoutes(services: AppServices): Router {
  const routes = Router({ caseSensitive: true, strict: true });
  // Without credentials, as the API's anonymous callers: counted per address (token guessing, scrypt floods).
  routes.use('/members/accept', async (req: Request, res: Response, next) => {
    const state = await consumeRateLimit(services.orm.em.fork(), `ip:${req.ip ?? 'unknown'}`, services.config.rateLimitAnonymousPerMinute);
    setRateLimitHeaders(res, state);
    if (!state.exceeded) return next();
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(state.resetAt - Date.now() / 1000))));
    page(res, 429, 'Too many requests', '<h1>Too many requests</h1><p>Wait a minute, then open the link again.</p>');
  });
  routes.get('/members/accept', async (req: Request, res: Response) => {
    const token = field(req.query.token);
    const member = token ? await findOpenInvitation({ em: services.orm.em.fork() }, { token }) : null;
    if (!member) return invalidPage(res);
    formPage(res, 200, { token, organization: member.organization.name, email: member.email, name: member.name ?? '' });
  });
  routes.post('/members/accept', express.urlencoded({ extended: false, limit: '8kb' }), async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const token = field(body.token);
    const member = token ? await findOpenInvitation({ em: services.orm.em.fork() }, { token }) : null;
    if (!member) return invalidPage(res);
    const name = field(body.name).trim();
    const password = field(body.password);
    const view = { token, organization: member.organization.name, email: member.email, name };
    if (password.length < PASSWORD_LIMITS.minLength || password.length > PASSWORD_LIMITS.maxLength) {
      return formPage(res, 422, { ...view, error: `The password must be ${PASSWORD_LIMITS.minLength} to ${PASSWORD_LIMITS.maxLength} characters.` });
    }
    if (password !== field(body.confirm)) return formPage(res, 422, { ...view, error: 'The two passwords differ.' });
    if (name.length > 100) return formPage(res, 422, { ...view, error: 'The name must be at most 100 characters.' });
    if (findUnstorableText({ name, password }))
      return formPage(res, 422, { ...view, name: '', error: 'The name or password contains characters that cannot be stored.' });
    try {
      await acceptInvitation({ em: services.orm.em.fork(), services }, { token, password, name: name || undefined, client: clientOf(req) });
    } catch (error) {
      if (error instanceof AppError && error.code === 'INVALID_INVITATION') return invalidPage(res);
      throw error;
    }
    page(
      res,
      200,
      `Welcome to ${member.organization.name}`,
      `<h1>You have joined ${escapeHtml(member.organization.name)}</h1><p>Sign in with ${escapeHtml(member.email)} and your new password.</p>
<p><a class="button" href="/app">Sign in to the dashboard</a></p>`,
    );
  });
  return routes;
}
