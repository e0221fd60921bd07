import { normalizeHex } from '../../shared/hex-colour.js';

/**
 * Theme colours with enough contrast whatever the host asks for: text against the background
 * must reach WCAG AA (4.5:1), else the default text colour (or black or white) is used; the
 * label on primary buttons is black or white, whichever reads better; an accent that would not
 * stand out from the background (3:1, WCAG's rule for controls) falls back to the text colour.
 */
export interface ResolvedTheme {
  primary: string;
  onPrimary: string;
  accent: string;
  background: string;
  text: string;
  muted: string;
}

export const DEFAULT_THEME = { primary: '#2563eb', background: '#ffffff', text: '#1f2937' } as const;

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** WCAG 2 relative luminance. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

function betterOf(background: string, candidates: string[]): string {
  return candidates.reduce((best, candidate) => (contrastRatio(candidate, background) > contrastRatio(best, background) ? candidate : best));
}

/** Mixes `hex` toward `toward` by `amount` (0 to 1): the muted text colour. */
function mix(hex: string, toward: string, amount: number): string {
  const a = channels(hex);
  const b = channels(toward);
  return `#${a
    .map((channel, i) =>
      Math.round(channel + (b[i]! - channel) * amount)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

export function resolveTheme(requested: { primary?: string | null; background?: string | null; text?: string | null }): ResolvedTheme {
  const background = normalizeHex(requested.background) ?? DEFAULT_THEME.background;
  const primary = normalizeHex(requested.primary) ?? DEFAULT_THEME.primary;
  let text = normalizeHex(requested.text) ?? DEFAULT_THEME.text;
  if (contrastRatio(text, background) < 4.5) text = betterOf(background, [DEFAULT_THEME.text, '#000000', '#ffffff']);
  const onPrimary = betterOf(primary, ['#ffffff', '#000000']);
  const accent = contrastRatio(primary, background) >= 3 ? primary : text;
  // As light as it can be while still reading at 4.5:1.
  let muted = text;
  for (const amount of [0.45, 0.35, 0.25, 0.15]) {
    const candidate = mix(text, background, amount);
    if (contrastRatio(candidate, background) >= 4.5) {
      muted = candidate;
      break;
    }
  }
  return { primary, onPrimary, accent, background, text, muted };
}
