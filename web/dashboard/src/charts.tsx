import { useId } from 'react';

interface Bar {
  label: string;
  value: number;
  /** The text written beside the bar (the value itself when absent). */
  display?: string;
}

/** Distinct on white with 3:1 contrast, and never the only signal: every bar is labelled in text. */
const PALETTE = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490'];

function colourOf(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

/**
 * Horizontal bars drawn as SVG, labelled in text beside each bar; screen readers get the title
 * and every value (the SVG is an image with a description, and the numbers are in a table).
 */
export function BarChart({ title, bars, unit = '' }: { title: string; bars: Bar[]; unit?: string }) {
  const id = useId();
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const rowHeight = 28;
  // Compact, so the text stays readable where a phone scales the drawing down.
  const labelWidth = 120;
  const chartWidth = 220;
  const height = bars.length * rowHeight + 8;
  const description = bars.map((bar) => `${bar.label}: ${bar.display ?? `${bar.value}${unit}`}`).join('; ');
  return (
    <figure className="chart">
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <svg viewBox={`0 0 ${labelWidth + chartWidth + 80} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="xMinYMin meet">
        <desc id={`${id}-desc`}>{description || 'No data'}</desc>
        {bars.map((bar, index) => {
          const width = (bar.value / max) * chartWidth;
          const y = index * rowHeight + 4;
          return (
            <g key={bar.label}>
              <text x={labelWidth - 8} y={y + 16} textAnchor="end" className="chart-label">
                {bar.label.length > 16 ? `${bar.label.slice(0, 15)}…` : bar.label}
              </text>
              <rect x={labelWidth} y={y + 2} width={Math.max(width, bar.value > 0 ? 2 : 0)} height={rowHeight - 10} fill={colourOf(0)} rx="3" />
              <text x={labelWidth + width + 6} y={y + 16} className="chart-value">
                {bar.display ?? `${bar.value}${unit}`}
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
  values: number[];
}

/**
 * Bars grouped by category, one bar per series (a comparison's segments), with a legend naming
 * each series by colour and by a pattern of text: each bar also carries its series' number.
 */
export function GroupedBarChart({ title, categories, series, unit = '', format }: { title: string; categories: string[]; series: Series[]; unit?: string; format?: (value: number) => string }) {
  const id = useId();
  const show = format ?? ((value: number) => `${Math.round(value * 10) / 10}${unit}`);
  const max = Math.max(1e-9, ...series.flatMap((entry) => entry.values));
  const barHeight = 16;
  const groupHeight = series.length * (barHeight + 4) + 14;
  const labelWidth = 120;
  const chartWidth = 210;
  const height = categories.length * groupHeight + 4;
  const description = categories
    .map((category, index) => `${category}: ${series.map((entry) => `${entry.name} ${show(entry.values[index] ?? 0)}`).join(', ')}`)
    .join('; ');
  return (
    <figure className="chart">
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <ul className="legend" aria-label="Legend">
        {series.map((entry, index) => (
          <li key={entry.name}>
            <svg width="14" height="14" aria-hidden="true">
              <rect width="14" height="14" fill={colourOf(index)} rx="2" />
            </svg>{' '}
            {index + 1}. {entry.name}
          </li>
        ))}
      </ul>
      <svg viewBox={`0 0 ${labelWidth + chartWidth + 90} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="xMinYMin meet">
        <desc id={`${id}-desc`}>{description || 'No data'}</desc>
        {categories.map((category, categoryIndex) => {
          const top = categoryIndex * groupHeight + 4;
          return (
            <g key={categoryIndex}>
              <text x={labelWidth - 8} y={top + 14} textAnchor="end" className="chart-label">
                {category.length > 16 ? `${category.slice(0, 15)}…` : category}
              </text>
              {series.map((entry, seriesIndex) => {
                const value = entry.values[categoryIndex] ?? 0;
                const width = (value / max) * chartWidth;
                const y = top + seriesIndex * (barHeight + 4);
                return (
                  <g key={entry.name}>
                    <rect x={labelWidth} y={y} width={Math.max(width, value > 0 ? 2 : 0)} height={barHeight} fill={colourOf(seriesIndex)} rx="2" />
                    <text x={labelWidth + width + 6} y={y + 12} className="chart-value">
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
