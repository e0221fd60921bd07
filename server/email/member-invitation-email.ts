import { formatUtcDateTime } from '../../shared/i18n/format-date.js';
import { escapeHtml } from '../lib/html.js';
import type { RenderedEmail } from './templates.js';

export interface MemberInvitationContext {
  organizationName: string;
  role: string;
  acceptUrl: string;
  expiresAt: Date;
}

/**
 * The email inviting a colleague into an organization. Members work in English (the dashboard's
 * language), so it is not localized like participants' invitations.
 */
export function renderMemberInvitation(context: MemberInvitationContext): RenderedEmail {
  const organization = context.organizationName.replace(/[\r\n]+/g, ' ');
  const expires = formatUtcDateTime(context.expiresAt, 'en');
  const article = /^[aeiou]/.test(context.role) ? 'an' : 'a';
  const text = [
    'Hello,',
    '',
    `You have been invited to join ${organization} as ${article} ${context.role}.`,
    'Choose a password to accept the invitation:',
    '',
    context.acceptUrl,
    '',
    `The link works once, until ${expires}. If you did not expect this invitation, ignore this email.`,
    '',
  ].join('\n');
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(organization)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1f2328;">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px 32px;font-size:16px;line-height:1.5;">
<p>Hello,</p>
<p>You have been invited to join <strong>${escapeHtml(organization)}</strong> as ${article} ${escapeHtml(context.role)}.</p>
<p><a href="${escapeHtml(context.acceptUrl)}" style="display:inline-block;padding:12px 24px;background:#2563eb;color:#fff;text-decoration:none;border-radius:6px;font-weight:600;">Accept the invitation</a></p>
<p style="font-size:14px;color:#57606a;word-break:break-all;">Or open ${escapeHtml(context.acceptUrl)}</p>
<p style="font-size:14px;color:#57606a;">The link works once, until ${escapeHtml(expires)}. If you did not expect this invitation, ignore this email.</p>
</div></body></html>
`;
  return { subject: `You are invited to join ${organization}`, html, text };
}
