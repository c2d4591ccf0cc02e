import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { IsrSummaryCards } from '../../src/components/IsrSummaryCards';

const SUMMARY = {
  totalAmountCents: 925000,
  totalEvents: 258,
  clickbankAmountCents: 723800,
  clickbankEvents: 154,
  lemonsqueezyAmountCents: 186200,
  lemonsqueezyEvents: 98,
};

/** The four ISR cards (§2): amounts with two decimals, event-count hints, Avg order. */
const meta = {
  title: 'Tracking/IsrSummaryCards',
  component: IsrSummaryCards,
  args: { state: { status: 'ready', data: SUMMARY }, averageLabel: 'Avg order (approx)' },
} satisfies Meta<typeof IsrSummaryCards>;
export default meta;
type Story = StoryObj<typeof meta>;

function card(canvasElement: HTMLElement, label: string) {
  return within(canvasElement).getByRole('region', { name: label });
}

export const Ready: Story = {
  play: async ({ canvasElement }) => {
    await expect(card(canvasElement, 'Total revenue')).toHaveTextContent(
      'Total revenue$9,250.00258 events',
    );
    await expect(card(canvasElement, 'ClickBank-side revenue')).toHaveTextContent(
      '$7,238.00154 events',
    );
    await expect(card(canvasElement, 'LemonSqueezy-side revenue')).toHaveTextContent(
      '$1,862.0098 events',
    );
    await expect(card(canvasElement, 'Avg order (approx)')).toHaveTextContent('$35.85258 orders');
  },
};

/** '…' while loading (§2). */
export const Loading: Story = {
  args: { state: { status: 'loading' } },
  play: async ({ canvasElement }) => {
    await expect(card(canvasElement, 'Total revenue')).toHaveTextContent('Total revenue…');
  },
};

/** No events in range: a dash (§2). */
export const NoData: Story = {
  args: { state: { status: 'ready', data: { ...SUMMARY, totalAmountCents: 0, totalEvents: 0 } } },
  play: async ({ canvasElement }) => {
    await expect(card(canvasElement, 'Total revenue')).toHaveTextContent('Total revenue—');
    await expect(card(canvasElement, 'Avg order (approx)')).toHaveTextContent('—');
  },
};

/** Failure: the red line 'ISR: ' + message (§2, §8). */
export const Error: Story = {
  args: { state: { status: 'error', message: 'Failed to load ISR summary' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('ISR: Failed to load ISR summary');
  },
};
