import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { RevenueCards } from '../../src/components/RevenueView/RevenueCards';
import type { RevenueOverview } from '../../src/domain/revenue';

/** A range's figures, round enough to read the cards by eye. */
const NOW: RevenueOverview = {
  currency: 'USD',
  interval: 'month',
  from: '2026-06-01',
  to: '2026-11-20',
  mrrStartCents: 2_000_000,
  mrrEndCents: 2_400_000,
  movements: [],
  mrrSeries: [],
  customersStart: 1000,
  customersEnd: 1100,
  customersChurned: 40,
  customerChurnRate: 0.04,
  mrrChurnRate: 0.05,
  nrr: 1.02,
  quickRatio: 2.5,
  arpaCents: 2182,
  ltvCents: 54_550,
  mrrByProvider: [],
  mrrByPlan: [],
};

/** The previous equal period: lower MRR, higher churn, the same NRR. */
const BEFORE: RevenueOverview = {
  ...NOW,
  mrrStartCents: 1_800_000,
  mrrEndCents: 2_000_000,
  customerChurnRate: 0.05,
  mrrChurnRate: 0.05,
  nrr: 1.02,
  quickRatio: 2,
  arpaCents: 2000,
  ltvCents: 40_000,
};

/** A card's figure and hint, found by its label (StatCard: h3, value p, hint p). */
function card(canvasElement: HTMLElement, label: string): { value: string; hint: string } {
  const region = within(canvasElement).getByRole('region', { name: label });
  return {
    value: region.querySelector('h3 + p')?.textContent ?? '',
    hint: region.querySelector('h3 + p + p')?.textContent ?? '',
  };
}

/** The eight revenue cards, each compared with the previous equal period. */
const meta = {
  title: 'Revenue/RevenueCards',
  component: RevenueCards,
  args: { data: NOW, previous: BEFORE },
} satisfies Meta<typeof RevenueCards>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every card with its comparison: arrows and words carry the direction, not colour. */
export const Compared: Story = {
  play: async ({ canvasElement }) => {
    await expect(card(canvasElement, 'MRR now')).toEqual({
      value: '$24,000',
      hint: '▲ 20.0% vs previous period',
    });
    await expect(card(canvasElement, 'Net new MRR')).toEqual({
      value: '$4,000',
      hint: '▲ 100.0% vs previous period',
    });
    await expect(card(canvasElement, 'Customer churn')).toEqual({
      value: '4.0%',
      hint: '▼ 20.0% vs previous period',
    });
    await expect(card(canvasElement, 'MRR churn').hint).toBe('= same as previous period');
    await expect(card(canvasElement, 'NRR').value).toBe('102.0%');
    await expect(card(canvasElement, 'Quick ratio')).toEqual({
      value: '2.50',
      hint: '▲ 25.0% vs previous period',
    });
    await expect(card(canvasElement, 'ARPA').value).toBe('$21.82');
    await expect(card(canvasElement, 'LTV').value).toBe('$546');
  },
};

/** The previous period is not known yet: every card says so. */
export const NoPrevious: Story = {
  args: { previous: null },
  play: async ({ canvas }) => {
    await expect(canvas.getAllByText('No previous period')).toHaveLength(8);
  },
};

/** Missing figures (no churn, so no quick ratio or LTV): dashes, and no comparison for them. */
export const MissingFields: Story = {
  args: {
    data: { ...NOW, quickRatio: null, ltvCents: null, customerChurnRate: null, arpaCents: null },
  },
  play: async ({ canvasElement }) => {
    await expect(card(canvasElement, 'Quick ratio')).toEqual({
      value: '—',
      hint: 'No previous period',
    });
    await expect(card(canvasElement, 'LTV').value).toBe('—');
    await expect(card(canvasElement, 'ARPA').value).toBe('—');
    await expect(card(canvasElement, 'Customer churn').value).toBe('—');
  },
};

/** MRR fell from a previous period of zero net: 'down from 0' has no percentage to give. */
export const DownFromZero: Story = {
  args: {
    data: { ...NOW, mrrStartCents: 2_400_000, mrrEndCents: 2_000_000 },
    previous: { ...BEFORE, mrrStartCents: 2_000_000, mrrEndCents: 2_000_000 },
  },
  play: async ({ canvasElement }) => {
    await expect(card(canvasElement, 'Net new MRR')).toEqual({
      value: '-$4,000',
      hint: '▼ down from 0 vs previous period',
    });
  },
};

/** Another reporting currency: every money card is in euros. */
export const Euros: Story = {
  args: { data: { ...NOW, currency: 'EUR' }, previous: { ...BEFORE, currency: 'EUR' } },
  play: async ({ canvasElement }) => {
    await expect(card(canvasElement, 'MRR now').value).toBe('€24,000');
    await expect(card(canvasElement, 'ARPA').value).toBe('€21.82');
    await expect(card(canvasElement, 'LTV').value).toBe('€546');
  },
};

/** Large figures fit their cards. */
export const LargeFigures: Story = {
  args: {
    data: { ...NOW, mrrStartCents: 0, mrrEndCents: 123_456_789_00, ltvCents: 98_765_432_10 },
    previous: null,
  },
  play: async ({ canvas, canvasElement }) => {
    await expect(card(canvasElement, 'MRR now').value).toBe('$123,456,789');
    for (const region of canvas.getAllByRole('region')) {
      await expect(region.scrollWidth).toBeLessThanOrEqual(region.clientWidth);
    }
  },
};
