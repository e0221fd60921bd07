import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Mustache from 'mustache';
import { DEFAULT_BRAND_COLOR } from '../lib/branding.js';
import { escapeHtml } from '../lib/html.js';

export interface InvitationEmailContext {
  /** null: the greeting is generic ("Hello,"). */
  participantName: string | null;
  campaignName: string;
  organizationName: string;
  /** https URL of the organization's logo, shown at the top of the HTML when set. */
  logoUrl: string | null;
  /** `#RRGGBB` accent for the button and links; null: a neutral blue. */
  brandColor: string | null;
  inviteUrl: string;
  expiresAt: Date;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

interface TemplateSource {
  subject: string;
  html: string;
  text: string;
}

const TEMPLATE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const TEMPLATE_PARTS = ['subject', 'html', 'text'] as const;
const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/**
 * The layout shared by the built-in templates. Built-ins are string constants rather than files
 * because the production build is a single esbuild bundle with no template files beside it.
 */
function htmlLayout(body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<title>{{campaignName}}</title>
</head>
<body style="margin:0;padding:0;background-color:#f4f5f7;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f5f7;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border-radius:8px;border-top:4px solid {{brandColor}};">
{{#logoUrl}}
<tr><td style="padding:24px 32px 0;"><img src="{{logoUrl}}" alt="{{organizationName}}" height="40" style="display:block;height:40px;width:auto;max-width:200px;border:0;"></td></tr>
{{/logoUrl}}
<tr><td style="padding:24px 32px;font-family:${FONT};font-size:16px;line-height:1.5;color:#1f2328;">
<p style="margin:0 0 16px;">{{greeting}}</p>
${body}
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 24px;">
<tr><td style="border-radius:6px;background-color:{{brandColor}};"><a href="{{inviteUrl}}" style="display:inline-block;padding:12px 24px;font-family:${FONT};font-size:16px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px;">Start the interview</a></td></tr>
</table>
<p style="margin:0 0 4px;font-size:14px;color:#57606a;">If the button does not work, copy this link into your browser:</p>
<p style="margin:0 0 24px;font-size:14px;word-break:break-all;"><a href="{{inviteUrl}}" style="color:{{brandColor}};">{{inviteUrl}}</a></p>
<p style="margin:0;font-size:14px;color:#57606a;">This invitation expires on {{expiresAtText}}.</p>
</td></tr>
<tr><td style="padding:16px 32px 24px;border-top:1px solid #e5e7eb;font-family:${FONT};font-size:13px;line-height:1.5;color:#8c959f;">Sent by {{organizationName}}. If you were not expecting this invitation, you can ignore this email.</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

const BUILT_IN_TEMPLATES: Record<string, TemplateSource> = {
  default: {
    subject: '{{organizationName}} invites you to an interview: {{campaignName}}',
    html: htmlLayout(
      '<p style="margin:0 0 24px;">{{organizationName}} invites you to take part in an interview: <strong>{{campaignName}}</strong>. ' +
        'An AI interviewer will ask the questions; you can answer from your browser whenever it suits you.</p>',
    ),
    text: `{{greeting}}

{{organizationName}} invites you to take part in an interview: {{campaignName}}.
An AI interviewer will ask the questions; you can answer from your browser whenever it suits you.

Start the interview:
{{inviteUrl}}

This invitation expires on {{expiresAtText}}.

Sent by {{organizationName}}. If you were not expecting this invitation, you can ignore this email.
`,
  },
  reminder: {
    subject: 'Reminder: your interview for {{campaignName}}',
    html: htmlLayout(
      '<p style="margin:0 0 24px;">A friendly reminder that your interview for <strong>{{campaignName}}</strong> is still waiting for you.</p>',
    ),
    text: `{{greeting}}

A friendly reminder that your interview for {{campaignName}} is still waiting for you:
{{inviteUrl}}

This invitation expires on {{expiresAtText}}.

Sent by {{organizationName}}.
`,
  },
};

export const BUILT_IN_TEMPLATE_NAMES: readonly string[] = Object.freeze(Object.keys(BUILT_IN_TEMPLATES));

const dateText = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const timeText = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

/**
 * Variables every invitation template can use:
 * - `participantName`: the participant's name, empty when unknown
 * - `greeting`: "Hello Ada," or "Hello," without a name
 * - `campaignName`, `organizationName`
 * - `logoUrl`: organization logo URL, empty when unset (use `{{#logoUrl}}…{{/logoUrl}}`)
 * - `brandColor`: `#RRGGBB`, the organization's colour or a neutral blue
 * - `inviteUrl`: the participant's personal link
 * - `expiresAt`: ISO 8601 timestamp
 * - `expiresAtText`: e.g. "23 November 2026, 14:05 UTC"
 *
 * `{{var}}` is HTML-escaped in the HTML part only; subject and text are rendered verbatim.
 */
function invitationView(context: InvitationEmailContext): Record<string, string | null> {
  return {
    participantName: context.participantName,
    greeting: context.participantName ? `Hello ${context.participantName},` : 'Hello,',
    campaignName: context.campaignName,
    organizationName: context.organizationName,
    logoUrl: context.logoUrl,
    brandColor: context.brandColor ?? DEFAULT_BRAND_COLOR,
    inviteUrl: context.inviteUrl,
    expiresAt: context.expiresAt.toISOString(),
    expiresAtText: `${dateText.format(context.expiresAt)}, ${timeText.format(context.expiresAt)} UTC`,
  };
}

/**
 * Reads `<name>.subject.mustache`, `<name>.html.mustache` and `<name>.text.mustache` triples.
 * Anything wrong throws here, so a misconfigured directory stops the process at startup
 * instead of failing the first invitation.
 */
async function readTemplateDirectory(directory: string): Promise<Map<string, TemplateSource>> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(error as Error).message})`;
    throw new Error(`Email templates directory ${directory} ${reason}`, { cause: error });
  }

  const names = new Set<string>();
  for (const file of entries.filter((entry) => entry.endsWith('.mustache'))) {
    const match = /^(.*)\.(subject|html|text)\.mustache$/.exec(file);
    if (!match || !TEMPLATE_NAME.test(match[1]!)) {
      throw new Error(
        `Email template file ${path.join(directory, file)} is misnamed: expected <name>.subject.mustache, <name>.html.mustache ` +
          `or <name>.text.mustache with <name> matching ${TEMPLATE_NAME}`,
      );
    }
    names.add(match[1]!);
  }

  const templates = new Map<string, TemplateSource>();
  for (const name of [...names].sort()) {
    const source: Partial<TemplateSource> = {};
    for (const part of TEMPLATE_PARTS) {
      const file = path.join(directory, `${name}.${part}.mustache`);
      if (!entries.includes(path.basename(file))) {
        throw new Error(`Email template "${name}" in ${directory} is incomplete: ${file} is missing`);
      }
      source[part] = await readFile(file, 'utf8');
      try {
        Mustache.parse(source[part]);
      } catch (error) {
        throw new Error(`Email template file ${file} does not parse: ${(error as Error).message}`, { cause: error });
      }
    }
    templates.set(name, source as TemplateSource);
  }
  return templates;
}

export class EmailTemplates {
  readonly #templates: ReadonlyMap<string, TemplateSource>;

  private constructor(templates: ReadonlyMap<string, TemplateSource>) {
    this.#templates = templates;
  }

  /** The built-in templates plus those in `directory`; a directory template replaces a built-in of the same name. */
  static async load(directory?: string): Promise<EmailTemplates> {
    const templates = new Map(Object.entries(BUILT_IN_TEMPLATES));
    if (directory !== undefined) {
      for (const [name, source] of await readTemplateDirectory(directory)) templates.set(name, source);
    }
    return new EmailTemplates(templates);
  }

  has(name: string): boolean {
    return this.#templates.has(name);
  }

  names(): string[] {
    return [...this.#templates.keys()].sort();
  }

  renderInvitation(name: string, context: InvitationEmailContext): RenderedEmail {
    const source = this.#templates.get(name);
    if (!source) throw new Error(`Unknown email template "${name}"`);
    const view = invitationView(context);
    return {
      // A line break in a header value would let a campaign name add headers of its own.
      subject: Mustache.render(source.subject, view, {}, { escape: String }).replace(/[\r\n]+/g, ' ').trim(),
      html: Mustache.render(source.html, view, {}, { escape: escapeHtml }),
      text: Mustache.render(source.text, view, {}, { escape: String }),
    };
  }
}
