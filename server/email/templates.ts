import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Mustache from 'mustache';
import { type MessageKey, type Translate, translator } from '../../shared/i18n/translate.js';
import { formatUtcDateTime } from '../../shared/i18n/format-date.js';
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
  /** The interview's language tag: the email's words and dates (English for a language without a catalogue). */
  language: string;
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
<html lang="{{language}}">
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
<tr><td style="border-radius:6px;background-color:{{brandColor}};"><a href="{{inviteUrl}}" style="display:inline-block;padding:12px 24px;font-family:${FONT};font-size:16px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px;">{{startLabel}}</a></td></tr>
</table>
<p style="margin:0 0 4px;font-size:14px;color:#57606a;">{{linkHelp}}</p>
<p style="margin:0 0 24px;font-size:14px;word-break:break-all;"><a href="{{inviteUrl}}" style="color:{{brandColor}};">{{inviteUrl}}</a></p>
<p style="margin:0;font-size:14px;color:#57606a;">{{expiresLine}}</p>
</td></tr>
<tr><td style="padding:16px 32px 24px;border-top:1px solid #e5e7eb;font-family:${FONT};font-size:13px;line-height:1.5;color:#8c959f;">{{sentBy}} {{ignoreLine}}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

const BUILT_IN_TEMPLATES: Record<string, TemplateSource> = {
  default: {
    subject: '{{inviteSubject}}',
    html: htmlLayout('<p style="margin:0 0 24px;">{{{inviteIntroHtml}}} {{inviteHow}}</p>'),
    text: `{{greeting}}

{{inviteIntro}}
{{inviteHow}}

{{startLabel}}:
{{inviteUrl}}

{{expiresLine}}

{{sentBy}} {{ignoreLine}}
`,
  },
  reminder: {
    subject: '{{reminderSubject}}',
    html: htmlLayout('<p style="margin:0 0 24px;">{{{reminderIntroHtml}}}</p>'),
    text: `{{greeting}}

{{reminderIntro}}
{{inviteUrl}}

{{expiresLine}}

{{sentBy}}
`,
  },
};

export const BUILT_IN_TEMPLATE_NAMES: readonly string[] = Object.freeze(Object.keys(BUILT_IN_TEMPLATES));

/** A message in HTML with its `{campaign}` in bold, everything else escaped. */
function withCampaignInBold(t: Translate, key: MessageKey, values: Record<string, string>): string {
  const marker = '\u0000campaign\u0000';
  return escapeHtml(t(key, { ...values, campaign: marker })).replace(marker, `<strong>${escapeHtml(values.campaign!)}</strong>`);
}

/**
 * Variables every invitation template can use:
 * - `participantName`: the participant's name, empty when unknown
 * - `greeting`: "Hello Ada," or "Hello," without a name, in the invite's language
 * - `campaignName`, `organizationName`
 * - `logoUrl`: organization logo URL, empty when unset (use `{{#logoUrl}}…{{/logoUrl}}`)
 * - `brandColor`: `#RRGGBB`, the organization's colour or a neutral blue
 * - `inviteUrl`: the participant's personal link
 * - `expiresAt`: ISO 8601 timestamp
 * - `expiresAtText`: e.g. "23 November 2026, 14:05 UTC", in the invite's language
 * - `language`: the interview's language tag (`nl-BE`), for `<html lang>`
 * - the built-in templates' sentences in that language: `inviteSubject`, `inviteIntro`,
 *   `inviteHow`, `reminderSubject`, `reminderIntro`, `startLabel`, `linkHelp`, `expiresLine`,
 *   `sentBy`, `ignoreLine` (and `inviteIntroHtml`, `reminderIntroHtml`: escaped HTML with the
 *   campaign in bold, for `{{{…}}}`)
 *
 * `{{var}}` is HTML-escaped in the HTML part only; subject and text are rendered verbatim.
 */
function invitationView(context: InvitationEmailContext): Record<string, string | null> {
  const t = translator(context.language);
  const names = { organization: context.organizationName, campaign: context.campaignName };
  const expiresAtText = formatUtcDateTime(context.expiresAt, context.language);
  return {
    participantName: context.participantName,
    greeting: t('email.greeting', { hasName: context.participantName ? 'yes' : 'no', name: context.participantName ?? '' }),
    campaignName: context.campaignName,
    organizationName: context.organizationName,
    logoUrl: context.logoUrl,
    brandColor: context.brandColor ?? DEFAULT_BRAND_COLOR,
    inviteUrl: context.inviteUrl,
    expiresAt: context.expiresAt.toISOString(),
    expiresAtText,
    language: context.language,
    inviteSubject: t('email.invite.subject', names),
    inviteIntro: t('email.invite.intro', names),
    inviteIntroHtml: withCampaignInBold(t, 'email.invite.intro', names),
    inviteHow: t('email.invite.how'),
    reminderSubject: t('email.reminder.subject', names),
    reminderIntro: t('email.reminder.intro', names),
    reminderIntroHtml: withCampaignInBold(t, 'email.reminder.intro', names),
    startLabel: t('email.start'),
    linkHelp: t('email.linkHelp'),
    expiresLine: t('email.expires', { date: expiresAtText }),
    sentBy: t('email.sentBy', { organization: context.organizationName }),
    ignoreLine: t('email.ignore'),
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
      subject: Mustache.render(source.subject, view, {}, { escape: String })
        .replace(/[\r\n]+/g, ' ')
        .trim(),
      html: Mustache.render(source.html, view, {}, { escape: escapeHtml }),
      text: Mustache.render(source.text, view, {}, { escape: String }),
    };
  }
}
