import { isTestWorld } from '../entities/index.js';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { findInviteCredential } from '../domains/invites/find-invite-by-token.js';
import { openInvitePage } from '../domains/invites/open-invite-page.js';
import { joinShareLink } from '../domains/share-links/join-share-link.js';
import type { Campaign, Organization } from '../entities/index.js';
import { participantTitleOf } from '../domains/campaigns/participant-title.js';
import { brandColorOf, DEFAULT_BRAND_COLOR } from '../lib/branding.js';
import { escapeHtml } from '../lib/html.js';
import { consumeParticipantBudget } from '../platform/participant-limits.js';
import { formatUtcDateTime } from '../../shared/i18n/format-date.js';
import { translator } from '../../shared/i18n/translate.js';
import { normalizeHex } from '../../shared/hex-colour.js';
import type { InterviewPageConfig } from '../../shared/interview-page-config.js';
import { DEFAULT_TURN_TAKING } from '../../shared/schemas/turn-taking.js';
import { describeError } from './error-envelope.js';
import { checkedOrigin, interviewPageCsp, type InterviewPageText, renderInterviewPage } from './interview-page.js';
import { webAssets } from './web-asset-routes.js';
import { FAVICON_LINK } from './favicon-routes.js';
import { isWriteAfterTimeout } from './write-error.js';
import { rateLimitedError, setRateLimitHeaders } from '../platform/rate-limit.js';
import type { AppServices } from '../services.js';

interface PageContent {
  title: string;
  heading: string;
  paragraphs: string[];
  organization?: Pick<Organization, 'name' | 'logo' | 'settings'> | undefined;
  /** `<html lang>`; English when not given. */
  language?: string;
}

/** A small, self-contained HTML page in the organization's branding (no scripts, no external CSS). */
function renderPage(content: PageContent): string {
  const organization = content.organization;
  const brandColor = escapeHtml(organization ? brandColorOf(organization.settings) : DEFAULT_BRAND_COLOR);
  const logo = organization?.logo ? `<img src="${escapeHtml(organization.logo)}" alt="${escapeHtml(organization.name)}" height="40">` : '';
  const sender = organization ? `<p class="sender">${escapeHtml(organization.name)}</p>` : '';
  return `<!doctype html>
<html lang="${escapeHtml(content.language ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${FAVICON_LINK}
<title>${escapeHtml(content.title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1f2937}
main{max-width:560px;margin:10vh auto;background:#fff;border-radius:12px;padding:32px;box-shadow:0 1px 3px rgba(0,0,0,.08);border-top:4px solid ${brandColor}}
h1{font-size:1.5rem;margin:16px 0}
p{line-height:1.5}
.sender{color:#6b7280;font-size:.9rem;margin:0}
</style>
</head>
<body>
<main>
${logo}
${sender}
<h1>${escapeHtml(content.heading)}</h1>
${content.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')}
</main>
</body>
</html>
`;
}

function sendPage(res: Response, status: number, content: PageContent): void {
  // Already answered by the request timeout.
  if (res.headersSent) return;
  res.status(status).type('html').send(renderPage(content));
}

/** Why a share link takes no one in, as the catalogue says it. */
const LINK_CLOSED_MESSAGES = { full: 'closed.full', expired: 'closed.link_expired', closed: 'closed.closed', paused: 'closed.paused' } as const;

/**
 * A campaign's share link that takes no one in, in the campaign's language: a paused campaign can
 * open again (409); the other reasons are final (410).
 */
function campaignClosedPage(res: Response, reason: keyof typeof LINK_CLOSED_MESSAGES, organization: Organization, campaign: Campaign): void {
  const language = campaign.settings.language ?? 'en';
  const message = translator(language)(LINK_CLOSED_MESSAGES[reason]);
  const title = participantTitleOf(campaign);
  sendPage(res, reason === 'paused' ? 409 : 410, { title, heading: title, paragraphs: [message], organization, language });
}

function queryString(req: Request, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** What the SDK puts in the embed's query, checked: anything malformed is left out. */
interface EmbedOptions {
  parentOrigin: string | null;
  voice: string | null;
  theme: InterviewPageConfig['theme'];
}

function embedOptionsOf(req: Request): EmbedOptions {
  const voice = queryString(req, 'voice');
  return {
    parentOrigin: checkedOrigin(req.query.parentOrigin),
    voice: voice && voice.length <= 64 ? voice : null,
    theme: {
      primary: normalizeHex(queryString(req, 'theme[primary]')),
      background: normalizeHex(queryString(req, 'theme[background]')),
      text: normalizeHex(queryString(req, 'theme[text]')),
    },
  };
}

/**
 * Pages participants open without an API key: `/join/{code}` (share links), `/interview/{token}`
 * (the invite link) and `/embed?invite=…` (the SDK's iframe). All are limited per client address, since each can
 * create records or probe tokens, and never cached or leaked through the Referer header (the
 * URL carries a credential).
 */
export function participantPageRoutes(services: AppServices): Router {
  const routes = Router({ caseSensitive: true, strict: true });
  const em = () => services.orm.em.fork();
  const publicOrigin = new URL(services.config.publicUrl).origin;

  /** The interview page's configuration before anything is known of the invite. */
  const pageConfig = (embed: EmbedOptions | null): InterviewPageConfig => ({
    mode: embed ? 'embed' : 'page',
    token: null,
    parentOrigin: embed?.parentOrigin ?? null,
    language: 'en',
    voice: embed?.voice ?? null,
    theme: embed?.theme ?? { primary: null, background: null, text: null },
    campaignName: null,
    preview: false,
    testMode: false,
    organizationName: null,
    participantName: null,
    turnTaking: DEFAULT_TURN_TAKING,
    closed: null,
  });

  /**
   * A page that is not the interview (a 429, a timeout, an error): under `/embed` it is the
   * interview page showing the message, so the SDK's iframe may show it and the host gets its
   * `error` event; elsewhere the plain page.
   */
  const respond = (req: Request, res: Response, status: number, content: PageContent): void => {
    if (!req.path.startsWith('/embed')) return sendPage(res, status, content);
    const config = { ...pageConfig(embedOptionsOf(req)), closed: { code: `http_${status}`, message: content.paragraphs.join(' ') } };
    webAssets().then(
      (assets) => {
        if (res.headersSent) return;
        res.setHeader('Content-Security-Policy', interviewPageCsp(config, publicOrigin));
        res
          .status(status)
          .type('html')
          .send(renderInterviewPage(assets, config, content));
      },
      () => sendPage(res, status, content),
    );
  };

  routes.use(['/join', '/interview', '/embed'], (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self' https: data:; style-src 'unsafe-inline'; frame-ancestors 'none'");
    // A person is looking at this page: a timeout answers in HTML too (see observeRequests).
    res.locals.answerTimeout = () =>
      respond(req, res, 503, { title: 'Please try again', heading: 'This is taking too long', paragraphs: ['Please reload the page in a moment.'] });
    next();
  });

  /** The route template for logs and metrics: the path itself carries a credential. */
  const labelled =
    (route: string) =>
    (_req: Request, res: Response, next: NextFunction): void => {
      res.locals.route = route;
      next();
    };

  /** The participant budgets (a valid invite token's own, else the address's): past them, a 429 page. */
  const limited =
    (tokenOf?: (req: Request<Record<string, string>>) => string | undefined) =>
    async (req: Request<Record<string, string>>, res: Response, next: NextFunction): Promise<void> => {
      try {
        const token = tokenOf?.(req);
        const invite = token ? await findInviteCredential({ em: em() }, { token }) : null;
        const credential = token && invite && invite.status !== 'cancelled' ? { token, viaShareLink: invite.viaShareLink } : undefined;
        const state = await consumeParticipantBudget(em(), services.config, req, credential);
        if (res.headersSent) return; // answered by the request timeout meanwhile
        setRateLimitHeaders(res, state);
        if (state.exceeded) {
          const error = rateLimitedError(state);
          res.setHeader('Retry-After', error.headers['Retry-After']!);
          respond(req, res, 429, { title: 'Too many requests', heading: 'Too many requests', paragraphs: [error.message] });
          return;
        }
        next();
      } catch (error) {
        next(error);
      }
    };

  routes.get('/join/:code', labelled('/join/{code}'), limited(), async (req: Request<{ code: string }>, res: Response, next: NextFunction) => {
    try {
      const outcome = await joinShareLink({ em: em(), services }, { code: req.params.code, preview: req.method === 'HEAD' });
      if (outcome.kind === 'not_found') {
        sendPage(res, 404, { title: 'Link not found', heading: 'This link is not valid', paragraphs: ['Check that you copied the whole link.'] });
      } else if (outcome.kind === 'unavailable') {
        campaignClosedPage(res, outcome.reason, outcome.organization, outcome.campaign);
      } else if (res.headersSent) {
        // Answered by the request timeout meanwhile.
      } else if (outcome.kind === 'open') {
        res.status(200).end();
      } else {
        // 303: the browser follows with a GET to the new invite's page.
        res.redirect(303, outcome.inviteUrl);
      }
    } catch (error) {
      next(error);
    }
  });

  /**
   * The interview page: the full page behind the invite link, or the embed in the SDK's iframe
   * (its theme, voice and the origin to post events to from the query). An invite that cannot be
   * taken is a page saying why, with the status the invite link has always had (404, 409, 410).
   */
  const serveInterview = async (res: Response, token: string | undefined, embed: EmbedOptions | null) => {
    const assets = await webAssets();
    const outcome = token ? await openInvitePage({ em: em() }, { token }) : ({ kind: 'not_found' } as const);
    const config = pageConfig(embed);
    let status = 200;
    let text: InterviewPageText;
    if (outcome.kind === 'not_found') {
      status = 404;
      const message = 'Check that you copied the whole link, or ask the sender for a new invitation.';
      text = { title: 'Invitation not found', heading: 'This interview link is not valid', paragraphs: [message] };
      config.closed = { code: 'invite_not_found', message: `This interview link is not valid. ${message}` };
    } else {
      const { campaign, organization } = outcome;
      const title = participantTitleOf(campaign);
      config.campaignName = title;
      config.preview = campaign.preview;
      config.testMode = isTestWorld(organization);
      config.organizationName = organization.name;
      config.theme = { ...config.theme, primary: config.theme.primary ?? brandColorOf(organization.settings) };
      if (outcome.kind === 'closed') {
        status = outcome.reason === 'paused' ? 409 : 410;
        const message = translator(outcome.language)(`closed.${outcome.reason}`);
        config.language = outcome.language;
        text = { title, heading: title, paragraphs: [message] };
        config.closed = { code: outcome.reason, message };
      } else {
        const { invite } = outcome;
        Object.assign(config, {
          token,
          language: outcome.language,
          voice: config.voice ?? outcome.voice,
          participantName: invite.name ?? null,
          turnTaking: outcome.turnTaking,
        });
        // What the page says before its script runs, and all it says without one: in the interview's language too.
        const t = translator(outcome.language);
        text = {
          title,
          heading: title,
          paragraphs: [
            t('page.welcome.invitedBy', { organization: organization.name, name: invite.name ?? '', hasName: invite.name ? 'yes' : 'no' }),
            t('page.personalLink', { date: formatUtcDateTime(invite.expiresAt, outcome.language) }),
            t(outcome.started ? 'page.started' : 'page.takesPlace'),
          ],
        };
      }
    }
    if (res.headersSent) return; // answered by the request timeout meanwhile
    res.setHeader('Content-Security-Policy', interviewPageCsp(config, publicOrigin));
    res.setHeader('Permissions-Policy', 'microphone=(self), camera=(), geolocation=(), payment=(), usb=()');
    res
      .status(status)
      .type('html')
      .send(renderInterviewPage(assets, config, text));
  };

  routes.get(
    '/interview/:token',
    labelled('/interview/{token}'),
    limited((req) => req.params.token),
    async (req: Request<{ token: string }>, res: Response, next: NextFunction) => {
      try {
        await serveInterview(res, req.params.token, null);
      } catch (error) {
        next(error);
      }
    },
  );

  routes.get(
    '/embed',
    labelled('/embed'),
    limited((req) => queryString(req, 'invite')),
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        await serveInterview(res, queryString(req, 'invite'), embedOptionsOf(req));
      } catch (error) {
        next(error);
      }
    },
  );

  // Anything else under these paths is still a page a person is looking at: answer HTML, not the API's JSON.
  routes.all(
    ['/join', '/join/*rest', '/interview', '/interview/*rest', '/embed', '/embed/*rest'],
    labelled('unmatched'),
    limited(),
    (req: Request, res: Response) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD');
        respond(req, res, 405, { title: 'Not allowed', heading: 'This page can only be opened', paragraphs: ['Open the link in a browser.'] });
        return;
      }
      respond(req, res, 404, { title: 'Page not found', heading: 'This link is not valid', paragraphs: ['Check that you copied the whole link.'] });
    },
  );
  routes.use(['/join', '/interview', '/embed'], (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (isWriteAfterTimeout(error) || res.headersSent) return;
    // The path carries the participant's credential (token or share code): log the template only.
    const route = typeof res.locals.route === 'string' ? res.locals.route : 'unmatched';
    const malformed = error instanceof URIError || (error as { status?: number }).status === 400;
    if (malformed) {
      respond(req, res, 404, { title: 'Page not found', heading: 'This link is not valid', paragraphs: ['Check that you copied the whole link.'] });
      return;
    }
    const described = describeError(error);
    services.logger.error({ err: error, route }, 'participant page failed');
    if (described.status === 503) {
      for (const [name, value] of Object.entries(described.headers)) res.setHeader(name, value);
      respond(req, res, 503, { title: 'Please try again', heading: 'We are briefly unavailable', paragraphs: ['Please reload the page in a moment.'] });
      return;
    }
    respond(req, res, 500, { title: 'Something went wrong', heading: 'Something went wrong', paragraphs: ['Please try again in a moment.'] });
  });

  return routes;
}
