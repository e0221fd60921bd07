import type { InterviewPageConfig } from '../../shared/interview-page-config.js';
import { translator } from '../../shared/i18n/translate.js';
import { escapeHtml } from '../lib/html.js';
import { FAVICON_LINK } from './favicon-routes.js';
import type { WebAssets } from '../web/build-web-assets.js';

/** What the page says before its script runs (and all it says without JavaScript or on an error). */
export interface InterviewPageText {
  title: string;
  heading: string;
  paragraphs: string[];
}

/** The exact origin `parentOrigin` names, or null for anything that is not an http(s) origin. */
export function checkedOrigin(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The Content-Security-Policy of the interview page: its own script and styles, calls to its
 * own origin, images and audio from itself (and the public URL its signed files use: spoken turns,
 * question media) or a recording in memory; no inline script, no third-party request of any kind. Framed only by the page that
 * named itself as `parentOrigin` (the SDK always does), never at all on the full page.
 * `'wasm-unsafe-eval'` lets voice mode compile the service's own onnxruntime WebAssembly (Silero
 * VAD); it allows no JavaScript eval, and only these pages have it.
 */
export function interviewPageCsp(config: Pick<InterviewPageConfig, 'mode' | 'parentOrigin'>, publicOrigin: string): string {
  const frameAncestors = config.mode === 'embed' && config.parentOrigin ? config.parentOrigin : "'none'";
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    `img-src 'self' ${publicOrigin} data:`,
    `media-src 'self' ${publicOrigin} blob: data:`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

/** "Preview as participant": said above every screen of the interview, in its language. */
function previewNotice(language: string): string {
  const t = translator(language);
  return `<p class="preview-notice" role="note"><strong>${escapeHtml(t('page.preview.label'))}</strong> ${escapeHtml(t('page.preview.text'))}</p>\n`;
}

/** Test mode: a test world's invite says so on every screen, as a preview does. */
function testModeNotice(language: string): string {
  const t = translator(language);
  return `<p class="preview-notice test-mode-notice" role="note"><strong>${escapeHtml(t('page.testMode.label'))}</strong> ${escapeHtml(t('page.testMode.text'))}</p>\n`;
}

/**
 * The interview page's HTML: a shell whose script (built from `web/interview`) runs the
 * interview from the configuration in a JSON data block. The text before the script runs is
 * the server's, so an error page reads the same with or without JavaScript.
 */
export function renderInterviewPage(assets: WebAssets, config: InterviewPageConfig, text: InterviewPageText): string {
  // A JSON data block ends at the first "</script": no "<" survives in it.
  const json = JSON.stringify({ ...config, voiceAssets: { captureWorklet: `/assets/${assets.page.captureWorklet.name}` } }).replace(/</g, '\\u003c');
  const { script, style } = assets.page;
  return `<!doctype html>
<html lang="${escapeHtml(config.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${FAVICON_LINK}
<title>${escapeHtml(text.title)}</title>
<link rel="stylesheet" href="/assets/${style.name}">
<script type="application/json" id="interview-config">${json}</script>
<script src="/assets/${script.name}" defer></script>
</head>
<body class="${config.mode}">
<div id="announcer" class="visually-hidden" aria-live="polite"></div>
${config.preview ? previewNotice(config.language) : config.testMode ? testModeNotice(config.language) : ''}<main id="app">
<h1>${escapeHtml(text.heading)}</h1>
${text.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')}
<noscript><p>${escapeHtml(translator(config.language)('page.noScript'))}</p></noscript>
</main>
</body>
</html>
`;
}
