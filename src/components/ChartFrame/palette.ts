/**
 * Chart colours. SVG fills take literal colours, so the series tokens of src/styles/tokens.css
 * (--color-series-*) are mirrored here; keep the two in step. Every colour has ≥ 3:1 contrast on
 * the white surface (WCAG 1.4.11 non-text contrast).
 */

/** The fixed series colours (tokens.css --color-series-*). */
export const SERIES_COLORS = {
  lemonsqueezy: '#7c3aed',
  clickbank: '#ea580c',
  unknown: '#64748b',
  total: '#0f172a',
  new: '#16a34a',
  renewals: '#2563eb',
  cancellations: '#dc2626',
} as const;

/** Colours for any other provider or plan, assigned in order. */
const EXTRA_COLORS = [
  '#0e7490',
  '#4d7c0f',
  '#be185d',
  '#a16207',
  '#4338ca',
  '#047857',
  '#9333ea',
  '#b91c1c',
  '#0f766e',
  '#c2410c',
  '#1d4ed8',
  '#86198f',
] as const;

/**
 * The colour of a named series: the providers' own colours, grey for 'unknown', else the
 * `index`-th extra colour (deterministic for a given list order).
 */
export function seriesColor(name: string, index: number): string {
  if (name === 'lemonsqueezy' || name === 'clickbank' || name === 'unknown')
    return SERIES_COLORS[name];
  return EXTRA_COLORS[index % EXTRA_COLORS.length]!;
}

/** Grid and axis colours (tokens.css --color-border-muted, --color-fg-muted). */
export const AXIS_COLORS = { grid: '#e4e8ec', tick: '#57606a', axis: '#d0d7de' } as const;

/** The chart font (tokens.css --font-sans): the self-hosted Inter, so screenshots are stable. */
export const CHART_FONT = "Inter, 'DejaVu Sans', system-ui, sans-serif";
