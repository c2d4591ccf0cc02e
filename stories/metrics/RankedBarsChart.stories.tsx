import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { SERIES_COLORS } from '../../src/components/ChartFrame';
import { RankedBarsChart } from '../../src/components/RankedBarsChart';
import type { IsrAffiliateRow } from '../../src/domain/isr';
import { ISR_AFFILIATES_WIRE } from '../../tests/msw/fixtures-metrics';
import { closeDataTable, openDataTable } from '../support/chart';

/** The §3 top-affiliate rows (12, largest first), as the domain holds them. */
const AFFILIATES: IsrAffiliateRow[] = ISR_AFFILIATES_WIRE.map((a) => ({
  affiliate: a.affiliate,
  amountCents: a.amount_cents,
  events: a.events,
}));
const LONG_NAMES: IsrAffiliateRow[] = [
  { affiliate: 'the-extremely-long-affiliate-nickname-2026', amountCents: 1_250_000, events: 31 },
  { affiliate: 'another-very-long-partner-handle', amountCents: 640_000, events: 17 },
  { affiliate: '', amountCents: 120_000, events: 4 },
];
const TITLE = 'Top affiliates by revenue';
const name = (d: IsrAffiliateRow) => d.affiliate ?? '';
const amount = (d: IsrAffiliateRow) => d.amountCents;

/**
 * Horizontal bars in rank order with the first six also as a text list in compact k/M (§2 top
 * affiliates by revenue). Fixed size; the keyboard slider reads each bar.
 */
const meta = {
  title: 'Metrics/RankedBarsChart',
  component: RankedBarsChart<IsrAffiliateRow>,
  args: {
    title: TITLE,
    width: 480,
    height: 340,
    data: AFFILIATES,
    labelAccessor: name,
    valueAccessor: amount,
    valueKind: 'currency',
    currency: 'USD',
    color: SERIES_COLORS.clickbank,
    listCount: 6,
  },
} satisfies Meta<typeof RankedBarsChart<IsrAffiliateRow>>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Twelve affiliates: one bar each, the first six listed in k/M, every row in the data table. */
export const Default: Story = {
  play: async ({ canvas, canvasElement }) => {
    const chart = canvas.getByRole('region', { name: TITLE });
    await expect(chart).toBeVisible();
    const list = canvas.getByRole('list', { name: `${TITLE}: first 6` });
    const items = within(list).getAllByRole('listitem');
    await expect(items).toHaveLength(6);
    await expect(items[0]).toHaveTextContent('superaff$24.8k');
    await expect(items[5]).toHaveTextContent('tubepro');
    // Rank order reads top-down: #1's bar is the top one, #12's the bottom one.
    const tickY = (text: string) => within(chart).getByText(text).getBoundingClientRect().top;
    await expect(tickY('superaff')).toBeLessThan(tickY('clicksmith'));
    await expect(tickY('clicksmith')).toBeLessThan(tickY('linklord'));
    const rows = await openDataTable(chart);
    await expect(rows).toHaveLength(13);
    await expect(rows[0]).toHaveTextContent('RankNameAmount');
    await expect(rows[1]).toHaveTextContent('1superaff$24,800.00');
    await expect(rows[12]).toHaveTextContent('12linklord');
    await closeDataTable(canvasElement);
  },
};

/** The keyboard slider: focus reads #1, → the next, End the last (12th) affiliate. */
export const KeyboardSlider: Story = {
  play: async ({ canvas }) => {
    const slider = canvas.getByRole('slider', { name: new RegExp(`^${TITLE}`) });
    await expect(slider).toHaveAttribute('aria-valuemax', '12');
    await userEvent.tab();
    await expect(slider).toHaveFocus();
    await expect(await canvas.findByTestId('chart-tooltip')).toHaveTextContent(
      '#1 superaffRevenue$24,800.00',
    );
    await userEvent.keyboard('{ArrowRight}');
    await expect(slider).toHaveAttribute('aria-valuenow', '2');
    await expect(canvas.getByTestId('chart-tooltip')).toHaveTextContent('#2 clicksmith');
    await userEvent.keyboard('{End}');
    await expect(slider).toHaveAttribute('aria-valuenow', '12');
    await expect(canvas.getByTestId('chart-tooltip')).toHaveTextContent('#12 linklord');
    slider.blur();
  },
};

/** No affiliate in range: the empty message, no list. */
export const Empty: Story = {
  args: { data: [] },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No data for this period.')).toBeVisible();
    await expect(canvas.queryByRole('list', { name: new RegExp(`^${TITLE}: first`) })).toBeNull();
  },
};

/** One affiliate: one bar, a one-item list, one data row. */
export const OneBar: Story = {
  args: { data: AFFILIATES.slice(0, 1) },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('slider')).toHaveAttribute('aria-valuemax', '1');
    const list = canvas.getByRole('list', { name: `${TITLE}: first 1` });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    await expect(await openDataTable(canvasElement)).toHaveLength(2);
    await closeDataTable(canvasElement);
  },
};

/** Long names are cut with '…' on the axis but listed in full; a blank name reads '(none)'. */
export const LongLabels: Story = {
  args: { data: LONG_NAMES },
  play: async ({ canvas }) => {
    const chart = canvas.getByRole('region', { name: TITLE });
    await expect(within(chart).getByText('the-extremely-l…')).toBeInTheDocument();
    const list = canvas.getByRole('list', { name: `${TITLE}: first 3` });
    await expect(within(list).getByText(LONG_NAMES[0]!.affiliate!)).toBeVisible();
    await expect(within(list).getByText('(none)')).toBeVisible();
    // A long name is cut, never its amount: every amount stays inside its list item.
    for (const item of within(list).getAllByRole('listitem')) {
      const amount = item.lastElementChild!.getBoundingClientRect();
      await expect(amount.width).toBeGreaterThan(0);
      await expect(amount.right).toBeLessThanOrEqual(item.getBoundingClientRect().right + 0.5);
    }
    await expect(list).toHaveTextContent('$12.5k');
  },
};
