import { useId, useLayoutEffect, useRef } from 'react';
import { charsThatFit, wrapLabel } from './chart-labels';

interface Bar {
  label: string;
  /** Null: nothing to measure (no completed session, no answer): no bar is drawn and the text says "—". */
  value: number | null;
  /** The text written beside the bar (the value itself when absent). */
  display?: string;
}

/** Distinct on white with 3:1 contrast, and never the only signal: every bar is labelled in text. */
const PALETTE = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490'];

/** What a chart writes where there is no value, as the tables beside the charts do. */
export const NO_VALUE = '—';

function colourOf(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

const LABEL_FONT = 14;
const LINE_HEIGHT = 16;
/**
 * The label column: labels start at its left edge (x = 0), so nothing of them can fall outside
 * the drawing. A chart is drawn at its own size in CSS pixels (its width and height attributes)
 * and only ever shrinks to fit (CSS max-width), so its text is never blown up on a wide screen
 * nor shrunk more than a phone needs.
 */
const LABEL_WIDTH = 130;
const LABEL_GAP = 8;

/**
 * A category label inside its column, never cut by the SVG's edge: wrapped on two lines,
 * shortened with "…" past that (the full text in a `<title>`, the description and the table),
 * anchored at the left edge, and squeezed to the column where a font draws a line wider than
 * the estimate.
 */
function ChartLabel({ text, y }: { text: string; y: number }) {
  const ref = useRef<SVGTextElement>(null);
  const room = LABEL_WIDTH - LABEL_GAP;
  const { lines, truncated } = wrapLabel(text, charsThatFit(room, LABEL_FONT));
  useLayoutEffect(() => {
    for (const line of ref.current?.querySelectorAll('tspan') ?? []) {
      if (line.getComputedTextLength() > room) {
        line.setAttribute('textLength', String(room));
        line.setAttribute('lengthAdjust', 'spacingAndGlyphs');
      }
    }
  });
  return (
    <text ref={ref} x={0} y={y} className="chart-label" data-full-label={text}>
      {truncated && <title>{text}</title>}
      {lines.map((line, index) => (
        <tspan key={index} x={0} dy={index === 0 ? 0 : LINE_HEIGHT}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

/** Room right of the longest bar for the widest value text (13 px, 0.62 em a character on the safe side), so no value is cut by the right edge either. */
function roomForValues(texts: string[]): number {
  return Math.max(80, Math.ceil(Math.max(0, ...texts.map((text) => text.length)) * 13 * 0.62) + 12);
}

function labelLines(text: string): number {
  return wrapLabel(text, charsThatFit(LABEL_WIDTH - LABEL_GAP, LABEL_FONT)).lines.length;
}

/**
 * Horizontal bars drawn as SVG, labelled in text beside each bar; screen readers get the title
 * and every value (the SVG is an image with a description, and the numbers are in a table).
 * A bar without a value draws nothing and reads "—".
 */
export function BarChart({ title, bars, unit = '' }: { title: string; bars: Bar[]; unit?: string }) {
  const id = useId();
  const max = Math.max(1, ...bars.map((bar) => bar.value ?? 0));
  const chartWidth = 180;
  const show = (bar: Bar) => bar.display ?? (bar.value === null ? NO_VALUE : `${bar.value}${unit}`);
  const rows = bars.map((bar) => Math.max(28, labelLines(bar.label) * LINE_HEIGHT + 12));
  const tops = rows.map((_, index) => rows.slice(0, index).reduce((sum, height) => sum + height, 4));
  const height = rows.reduce((sum, row) => sum + row, 8);
  const description = bars.map((bar) => `${bar.label}: ${show(bar)}`).join('; ');
  const valueRoom = roomForValues(bars.map(show));
  return (
    <figure className="chart">
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <svg
        width={LABEL_WIDTH + chartWidth + valueRoom}
        height={height}
        viewBox={`0 0 ${LABEL_WIDTH + chartWidth + valueRoom} ${height}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        preserveAspectRatio="xMinYMin meet"
      >
        <desc id={`${id}-desc`}>{description || 'No data'}</desc>
        {bars.map((bar, index) => {
          const width = bar.value === null ? 0 : (bar.value / max) * chartWidth;
          const y = tops[index]!;
          return (
            <g key={`${index}-${bar.label}`}>
              <ChartLabel text={bar.label} y={y + 16} />
              {bar.value !== null && bar.value > 0 && <rect x={LABEL_WIDTH} y={y + 2} width={Math.max(width, 2)} height={18} fill={colourOf(0)} rx="3" />}
              <text x={LABEL_WIDTH + width + 6} y={y + 16} className="chart-value">
                {show(bar)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

interface Series {
  name: string;
  /** One per category; null where the series has nothing to measure (drawn as no bar and "—"). */
  values: (number | null)[];
}

/**
 * Bars grouped by category, one bar per series (a comparison's segments), with a legend naming
 * each series by colour and by a pattern of text: each bar also carries its series' number.
 */
export function GroupedBarChart({
  title,
  categories,
  series,
  unit = '',
  format,
}: {
  title: string;
  categories: string[];
  series: Series[];
  unit?: string;
  format?: (value: number) => string;
}) {
  const id = useId();
  const show = (value: number | null | undefined) =>
    value === null || value === undefined ? NO_VALUE : format ? format(value) : `${Math.round(value * 10) / 10}${unit}`;
  const max = Math.max(1e-9, ...series.flatMap((entry) => entry.values.map((value) => value ?? 0)));
  const barHeight = 16;
  const chartWidth = 180;
  const groups = categories.map((category) => Math.max(series.length * (barHeight + 4), labelLines(category) * LINE_HEIGHT + 4) + 14);
  const tops = groups.map((_, index) => groups.slice(0, index).reduce((sum, height) => sum + height, 4));
  const height = groups.reduce((sum, group) => sum + group, 4);
  const description = categories
    .map((category, index) => `${category}: ${series.map((entry) => `${entry.name} ${show(entry.values[index])}`).join(', ')}`)
    .join('; ');
  const valueRoom = roomForValues(series.flatMap((entry, index) => entry.values.map((value) => `${index + 1}: ${show(value)}`)));
  return (
    <figure className="chart">
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <ul className="legend" aria-label="Legend">
        {series.map((entry, index) => (
          <li key={`${index}-${entry.name}`}>
            <svg width="14" height="14" aria-hidden="true">
              <rect width="14" height="14" fill={colourOf(index)} rx="2" />
            </svg>{' '}
            {index + 1}. {entry.name}
          </li>
        ))}
      </ul>
      <svg
        width={LABEL_WIDTH + chartWidth + valueRoom}
        height={height}
        viewBox={`0 0 ${LABEL_WIDTH + chartWidth + valueRoom} ${height}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        preserveAspectRatio="xMinYMin meet"
      >
        <desc id={`${id}-desc`}>{description || 'No data'}</desc>
        {categories.map((category, categoryIndex) => {
          const top = tops[categoryIndex]!;
          return (
            <g key={categoryIndex}>
              <ChartLabel text={category} y={top + 14} />
              {series.map((entry, seriesIndex) => {
                const value = entry.values[categoryIndex] ?? null;
                const width = value === null ? 0 : (value / max) * chartWidth;
                const y = top + seriesIndex * (barHeight + 4);
                return (
                  <g key={`${seriesIndex}-${entry.name}`}>
                    {value !== null && value > 0 && (
                      <rect x={LABEL_WIDTH} y={y} width={Math.max(width, 2)} height={barHeight} fill={colourOf(seriesIndex)} rx="2" />
                    )}
                    <text x={LABEL_WIDTH + width + 6} y={y + 12} className="chart-value">
                      {seriesIndex + 1}: {show(value)}
                    </text>
                  </g>
                );
              })}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
