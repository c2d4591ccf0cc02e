import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { normaliseCohorts } from '../../src/api/revenue';
import { CohortHeatmap } from '../../src/components/CohortHeatmap';
import { makeCohortsWire } from '../../tests/msw/fixtures-revenue';

const COHORTS = normaliseCohorts(makeCohortsWire(12));

/** The cohort retention heatmap: rows are cohorts, columns months since start, cells % as text. */
const meta = {
  title: 'Revenue/CohortHeatmap',
  component: CohortHeatmap,
  args: {
    title: 'Cohort retention',
    cohorts: COHORTS,
    retention: 'logo',
    currency: 'USD',
    onRetentionChange: fn(),
  },
} satisfies Meta<typeof CohortHeatmap>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Logo retention: month 0 near 100 %, falling with age; future months left blank. */
export const Logo: Story = {
  play: async ({ canvas, args }) => {
    const table = canvas.getByRole('table', { name: /customers still recurring/ });
    const first = within(table).getByRole('row', { name: /^2025-12/ });
    await expect(within(first).getAllByRole('cell')[2]).toHaveTextContent('100.0%');
    const last = within(table).getByRole('row', { name: /^2026-11/ });
    await expect(within(last).getAllByRole('cell')).toHaveLength(14);
    await expect(canvas.getByRole('button', { name: 'Customers (logo)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Revenue' }));
    await expect(args.onRetentionChange).toHaveBeenCalledWith('revenue');
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Revenue retention: expanding cohorts exceed 100 %. */
export const Revenue: Story = {
  args: { retention: 'revenue' },
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: /starting MRR/ });
    await expect(within(table).getAllByText(/^1[0-9]{2}\.\d%$/).length).toBeGreaterThan(0);
  },
};

/** No cohorts in the period. */
export const Empty: Story = {
  args: { cohorts: [] },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No cohorts in this period.')).toBeVisible();
    await expect(canvas.queryByRole('table')).toBeNull();
  },
};
