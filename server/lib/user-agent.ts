import Bowser from 'bowser';
import type { TDevice } from '../../shared/schemas/sessions.js';

const DEVICE_TYPES = new Set(['desktop', 'mobile', 'tablet', 'tv']);

/**
 * Browser, operating system and device type from a User-Agent, with bowser (MIT; ua-parser-js 2
 * is AGPL). `unknown` where the header says nothing usable.
 */
export function deviceFromUserAgent(userAgent: string | undefined): TDevice {
  if (!userAgent) return { browser: 'unknown', os: 'unknown', type: 'unknown' };
  const parsed = Bowser.parse(userAgent.slice(0, 1000));
  const browser = parsed.browser.name ? [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ') : 'unknown';
  const os = parsed.os.name ? [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(' ') : 'unknown';
  const type = parsed.platform.type && DEVICE_TYPES.has(parsed.platform.type) ? parsed.platform.type : 'unknown';
  return { browser: browser.slice(0, 100), os: os.slice(0, 100), type };
}
