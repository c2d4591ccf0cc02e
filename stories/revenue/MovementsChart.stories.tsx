import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { MovementsChart } from '../../src/components/MovementsChart';
import type { MovementBucket } from '../../src/domain/revenue';
import { closeDataTable, openDataTable } from '../support/chart';

/** A day's movements, cents. */
function day(
  date: string,
  gains: [number, number, number],
  losses: [number, number],
): MovementBucket {
  const [n, expansion, reactivation] = gains;
  const [contraction, churn] = losses;
  return { date, new: n, expansion, reactivation, contraction, churn };
}

/** Seven days: growth, a day of heavy churn (net negative), a quiet day, growth again. */
const WEEK: MovementBucket[] = [
  day('2026-11-14', [120_00, 15_00, 0], [5_00, 20_00]),
  day('2026-11-15', [90_00, 0, 9_00], [0, 30_00]),
  day('2026-11-16', [30_00, 0, 0], [25_00, 180_00]),
  day('2026-11-17', [0, 0, 0], [0, 0]),
  day('2026-11-18', [150_00, 30_00, 10_00], [10_00, 40_00]),
  day('2026-11-19', [60_00, 5_00, 0], [0, 15_00]),
  day('2026-11-20', [200_00, 0, 20_00], [15_00, 25_00]),
];

/** Twelve months, every one losing more than it gains. */
const SHRINKING: MovementBucket[] = Array.from({ length: 12 }, (_, k) =>
  day(`2026-${String(k + 1).padStart(2, '0')}-01`, [500_00, 50_00, 0], [80_00, 900_00 + k * 40_00]),
);

/**
 * MRR movements: new, expansion and reactivation stacked above zero, contraction and churn below,
 * the net line; keyboard tooltips, a data table, and a click on a bar reports its movement.
 */
const meta = {
  title: 'Revenue/MovementsChart',
  component: MovementsChart,
  args: {
    title: 'MRR movements',
    width: 760,
    height: 340,
    data: WEEK,
    currency: 'USD',
    interval: 'day',
    onSelect: fn(),
  },
} satisfies Meta<typeof MovementsChart>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Gains and losses around zero with the net line: the legend names the five movements and the
 * net, the bars lie above and below the zero line, and the data table holds every figure.
 */
export const PositiveAndNegative: Story = {
  play: async ({ canvas, canvasElement }) => {
    const chart = canvas.getByRole('region', { name: 'MRR movements' });
    const legend = within(chart).getByRole('list', { name: 'Legend' });
    await expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['New', 'Expansion', 'Reactivation', 'Contraction', 'Churn', 'Net new MRR']);
    // Losses are drawn below the axis: some bars are red (churn) and some green (new).
    const fills = [...canvasElement.querySelectorAll('svg rect')].map((r) =>
      r.getAttribute('fill'),
    );
    await expect(fills).toContain('#dc2626');
    await expect(fills).toContain('#16a34a');
    await expect(canvasElement.querySelector('svg path[stroke]')).not.toBeNull();
    const rows = await openDataTable(chart);
    await expect(rows).toHaveLength(WEEK.length + 1);
    await expect(rows[0]).toHaveTextContent(
      'DateNewExpansionReactivationContractionChurnNet new MRR',
    );
    // 2026-11-16: 30 gained, 205 lost.
    await expect(rows[3]).toHaveTextContent('2026-11-16$30.00$0.00$0.00$25.00$180.00-$175.00');
    await closeDataTable(chart);
  },
};

/** The keyboard moves the active day; the tooltip and value text sign losses and give the net. */
export const KeyboardTooltip: Story = {
  play: async ({ canvas }) => {
    const slider = canvas.getByRole('slider', { name: /MRR movements/ });
    await userEvent.tab();
    await expect(slider).toHaveFocus();
    await expect(slider).toHaveAttribute(
      'aria-valuetext',
      '2026-11-14: New $120.00, Expansion $15.00, Reactivation $0.00, Contraction −$5.00, Churn −$20.00, Net new MRR $110.00',
    );
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    await expect(slider).toHaveAttribute('aria-valuenow', '3');
    const tooltip = canvas.getByTestId('chart-tooltip');
    await expect(tooltip).toHaveTextContent('2026-11-16');
    await expect(tooltip).toHaveTextContent('Churn−$180.00');
    await expect(tooltip).toHaveTextContent('Net new MRR-$175.00');
    await userEvent.keyboard('{End}');
    await expect(slider).toHaveAttribute('aria-valuenow', String(WEEK.length));
    await userEvent.keyboard('{Escape}');
    await expect(canvas.queryByTestId('chart-tooltip')).toBeNull();
  },
};

/** A quiet day shows zeros without a minus sign. */
export const QuietDay: Story = {
  args: { data: [WEEK[3]!] },
  play: async ({ canvas }) => {
    const slider = canvas.getByRole('slider', { name: /MRR movements/ });
    await userEvent.tab();
    await expect(slider).toHaveAttribute(
      'aria-valuetext',
      '2026-11-17: New $0.00, Expansion $0.00, Reactivation $0.00, Contraction $0.00, Churn $0.00, Net new MRR $0.00',
    );
  },
};

/** Churn outweighs growth every month: the net line stays below zero; month ticks read YYYY-MM. */
export const NegativeNet: Story = {
  args: { data: SHRINKING, interval: 'month' },
  play: async ({ canvas, canvasElement }) => {
    await expect(within(canvasElement).getAllByText(/^2026-\d\d$/).length).toBeGreaterThan(1);
    const chart = canvas.getByRole('region', { name: 'MRR movements' });
    const rows = await openDataTable(chart);
    for (const row of rows.slice(1)) await expect(row.lastElementChild).toHaveTextContent(/^-\$/);
    await closeDataTable(chart);
  },
};

/** A single bar: one day, one slider step. */
export const SingleBar: Story = {
  args: { data: [WEEK[0]!] },
  play: async ({ canvas }) => {
    const slider = canvas.getByRole('slider', { name: /MRR movements/ });
    await expect(slider).toHaveAttribute('aria-valuemax', '1');
    await expect(canvas.getByText('Nov 14')).toBeVisible();
  },
};

/** Another reporting currency: the axis and tooltip are in euros. */
export const Euros: Story = {
  args: { currency: 'EUR' },
  play: async ({ canvas }) => {
    const slider = canvas.getByRole('slider', { name: /MRR movements/ });
    await userEvent.tab();
    await expect(slider).toHaveAttribute(
      'aria-valuetext',
      '2026-11-14: New €120.00, Expansion €15.00, Reactivation €0.00, Contraction −€5.00, Churn −€20.00, Net new MRR €110.00',
    );
    await expect(canvas.getByTestId('chart-tooltip')).toHaveTextContent('Churn−€20.00');
    await expect(canvas.getAllByText(/^€/).length).toBeGreaterThan(0);
  },
};

/**
 * Clicking a bar segment reports its day and movement (the drill-down): the day comes from the
 * bucket under the pointer, never from the stack's own datum (which has no date).
 */
export const ClickBar: Story = {
  play: async ({ canvasElement, args }) => {
    const svg = canvasElement.querySelector('svg')!;
    const churn = [...svg.querySelectorAll<SVGRectElement>('rect')].filter(
      (r) => r.getAttribute('fill') === '#dc2626',
    );
    // The tallest churn bar: 2026-11-16's $180.
    const tallest = churn.reduce((a, b) =>
      b.getBoundingClientRect().height > a.getBoundingClientRect().height ? b : a,
    );
    const box = tallest.getBoundingClientRect();
    const coords = { clientX: box.x + box.width / 2, clientY: box.y + box.height / 2 };
    // The chart's pointer events land on its transparent overlay, on top of the bars.
    const overlay = svg.querySelector<SVGRectElement>(':scope > rect[fill="transparent"]')!;
    await userEvent.pointer([
      { target: overlay, coords, keys: '[MouseLeft>]' },
      { target: overlay, coords, keys: '[/MouseLeft]' },
    ]);
    await expect(args.onSelect).toHaveBeenCalledWith({ date: '2026-11-16', kind: 'churn' });
    await userEvent.unhover(overlay);
  },
};

/** Waiting for data. */
export const Loading: Story = {
  args: { status: 'loading' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading chart…');
    await expect(canvas.queryByRole('slider')).toBeNull();
  },
};

/** No bucket in range. */
export const Empty: Story = {
  args: { data: [] },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No data for this period.')).toBeVisible();
    await expect(canvas.queryByRole('slider')).toBeNull();
  },
};
