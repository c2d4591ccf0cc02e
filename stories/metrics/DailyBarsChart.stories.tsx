import type { Meta, StoryObj } from '@storybook/react-vite';
import { openDataTable, closeDataTable } from '../support/chart';
import { expect, userEvent, within } from 'storybook/test';
import { AmountSeriesMissing } from '../../src/components/AmountSeriesMissing';
import {
  DailyBarsChart,
  providerSeries,
  rowDate,
  rowTotal,
} from '../../src/components/DailyBarsChart';
import {
  AMOUNT_SERIES_NAMES,
  normaliseMetricsOverview,
  type ProviderDailyRow,
} from '../../src/domain/metrics';
import { TEN_PROVIDERS, makeMetricsWire } from '../../tests/msw/fixtures-metrics';

const m28 = normaliseMetricsOverview(makeMetricsWire({ days: 28 }));
const m1 = normaliseMetricsOverview(makeMetricsWire({ days: 1 }));
const m365 = normaliseMetricsOverview(makeMetricsWire({ days: 365 }));
const m10 = normaliseMetricsOverview(makeMetricsWire({ days: 28, providers: TEN_PROVIDERS }));
const mUnknown = normaliseMetricsOverview(
  makeMetricsWire({ days: 14, providers: ['lemonsqueezy', 'cb', ''] }),
);

/**
 * Daily bars per provider with the total line (§2 'Total subscriptions vs providers (daily)' and
 * 'Total amount vs providers (daily)'), stacked or grouped. Fixed size; keyboard tooltips.
 */
const meta = {
  title: 'Metrics/DailyBarsChart',
  component: DailyBarsChart<ProviderDailyRow>,
  args: {
    title: 'Total subscriptions vs providers (daily)',
    width: 760,
    height: 340,
    data: m28.byProviderDaily,
    xAccessor: rowDate,
    series: providerSeries(m28.providers),
    total: { label: 'Total', accessor: rowTotal },
    mode: 'stacked',
    valueKind: 'count',
  },
} satisfies Meta<typeof DailyBarsChart<ProviderDailyRow>>;
export default meta;
type Story = StoryObj<typeof meta>;

/** 28 days, stacked per provider, total line, legend; the data table holds every number. */
export const Stacked: Story = {
  play: async ({ canvas }) => {
    const chart = canvas.getByRole('region', { name: 'Total subscriptions vs providers (daily)' });
    const legend = within(chart).getByRole('list', { name: 'Legend' });
    await expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['LemonSqueezy', 'ClickBank', 'Total']);
    const rows = await openDataTable(chart);
    await expect(rows).toHaveLength(29);
    const last = m28.byProviderDaily[27]!;
    await expect(rows[28]).toHaveTextContent(
      `2026-11-20${last.values.lemonsqueezy}${last.values.clickbank}${last.total}`,
    );
    await closeDataTable(chart);
  },
};

/** Grouped side by side (§2 bar display mode). */
export const Grouped: Story = {
  args: { mode: 'grouped' },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByRole('slider', { name: /Total subscriptions vs providers/ }),
    ).toBeVisible();
  },
};

/** The keyboard moves the active day: focus shows the first, → the next, End the last. */
export const KeyboardTooltip: Story = {
  play: async ({ canvas }) => {
    const slider = canvas.getByRole('slider', { name: /Total subscriptions vs providers/ });
    await userEvent.tab();
    await expect(slider).toHaveFocus();
    const first = m28.byProviderDaily[0]!;
    await expect(slider).toHaveAttribute(
      'aria-valuetext',
      `${first.date}: LemonSqueezy ${first.values.lemonsqueezy}, ClickBank ${first.values.clickbank}, Total ${first.total}`,
    );
    await userEvent.keyboard('{ArrowRight}');
    await expect(slider).toHaveAttribute('aria-valuenow', '2');
    await userEvent.keyboard('{End}');
    await expect(slider).toHaveAttribute('aria-valuenow', '28');
    const tooltip = canvas.getByTestId('chart-tooltip');
    await expect(tooltip).toHaveTextContent('2026-11-20');
    await expect(tooltip).toHaveTextContent(`Total${m28.byProviderDaily[27]!.total}`);
  },
};

/** Money in cents on a currency axis; the tooltip shows two decimals. */
export const Amounts: Story = {
  args: {
    title: 'Total amount vs providers (daily)',
    data: m28.amountSeries!.rows,
    series: providerSeries(m28.amountSeries!.providers),
    valueKind: 'currency',
  },
  play: async ({ canvas }) => {
    const slider = canvas.getByRole('slider', { name: /Total amount vs providers/ });
    slider.focus();
    const first = m28.amountSeries!.rows[0]!;
    await expect(await canvas.findByTestId('chart-tooltip')).toHaveTextContent(
      `$${(first.total / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );
    await expect(canvas.getAllByText(/^\$\d/).length).toBeGreaterThan(0);
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

/** No day in range. */
export const Empty: Story = {
  args: { data: [] },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No data for this period.')).toBeVisible();
    await expect(canvas.queryByRole('list', { name: 'Legend' })).toBeNull();
  },
};

/** A one-day range: one group of bars. */
export const OneDay: Story = {
  args: { data: m1.byProviderDaily, series: providerSeries(m1.providers) },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('slider')).toHaveAttribute('aria-valuemax', '1');
    await expect(await openDataTable(canvasElement)).toHaveLength(2);
    await closeDataTable(canvasElement);
  },
};

/** 365 days: ticks thinned so labels never overlap; all 365 rows in the table. */
export const Days365: Story = {
  args: { data: m365.byProviderDaily, series: providerSeries(m365.providers) },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('slider')).toHaveAttribute('aria-valuemax', '365');
    await expect(await openDataTable(canvasElement)).toHaveLength(366);
    await closeDataTable(canvasElement);
  },
};

/** Ten providers (the backend's 'LS' and 'cb' normalised): ten colours, ten legend entries. */
export const TenProviders: Story = {
  args: { data: m10.byProviderDaily, series: providerSeries(m10.providers) },
  play: async ({ canvas }) => {
    const legend = canvas.getByRole('list', { name: 'Legend' });
    await expect(within(legend).getAllByRole('listitem')).toHaveLength(11);
    await expect(legend).toHaveTextContent('LemonSqueezy');
    await expect(legend).toHaveTextContent('ClickBank');
    await expect(legend).toHaveTextContent('warriorplus');
  },
};

/** A blank provider key reads as 'unknown' (§5) and is drawn in grey, last. */
export const UnknownProvider: Story = {
  args: { data: mUnknown.byProviderDaily, series: providerSeries(mUnknown.providers) },
  play: async ({ canvas }) => {
    const legend = canvas.getByRole('list', { name: 'Legend' });
    await expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['LemonSqueezy', 'ClickBank', 'unknown', 'Total']);
  },
};

/** §2: no amount series in the answer: the message lists the accepted names. */
export const MissingAmountSeries: Story = {
  args: {
    title: 'Total amount vs providers (daily)',
    valueKind: 'currency',
    data: [],
    message: <AmountSeriesMissing acceptedNames={AMOUNT_SERIES_NAMES} />,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText(/No amount time series was found/)).toBeVisible();
    for (const name of AMOUNT_SERIES_NAMES) await expect(canvas.getByText(name)).toBeVisible();
  },
};
