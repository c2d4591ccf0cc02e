import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { DashboardScreen } from '../../src/screens/DashboardScreen';
import { STATS_NO_ALL_TIME_WIRE, STATS_WIRE } from '../../tests/msw/fixtures';
import { statsHandlers } from '../../tests/msw/handlers';
import { withScreen } from '../support/withScreen';

/**
 * The Dashboard screen (§2 Dashboard) against a mocked GET /stats: the load's states and the
 * §3/§5 reading of the answer (alias spellings, the cents rule, the all-time cards).
 */
const meta = {
  title: 'Screens/Dashboard',
  component: DashboardScreen,
  decorators: [withScreen],
  parameters: { screen: { route: '/' }, msw: { handlers: [statsHandlers.ok()] } },
} satisfies Meta<typeof DashboardScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The figure a card shows (its value line), found by the card's §2 label. */
function cardValue(canvasElement: HTMLElement, label: string): HTMLElement {
  const card = within(canvasElement).getByRole('region', { name: label });
  const value = card.querySelector('h3 + p');
  if (!(value instanceof HTMLElement)) throw new globalThis.Error(`card ${label} has no value`);
  return value;
}

/** The stat cards inside the Dashboard region (the region itself excluded). */
function cards(canvasElement: HTMLElement): HTMLElement[] {
  const dashboard = within(canvasElement).getByRole('region', { name: 'Dashboard' });
  return within(dashboard).getAllByRole('region');
}

/** The request never answers: the loading text. */
export const Loading: Story = {
  parameters: { msw: { handlers: [statsHandlers.loading()] } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(await canvas.findByRole('status')).toHaveTextContent('Loading stats…');
    await expect(canvas.queryByRole('region', { name: 'MRR' })).toBeNull();
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** A 500 with a message: 'Error: ' plus the server's message (§8). */
export const Error: Story = {
  parameters: { msw: { handlers: [statsHandlers.error(500, 'Stats query failed')] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Error: Stats query failed');
    await expect(canvas.queryByRole('region', { name: 'MRR' })).toBeNull();
  },
};

/** 200 with a body that is not an object: the message is empty, so the default shows (§8). */
export const MalformedResponse: Story = {
  parameters: { msw: { handlers: [statsHandlers.malformed()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Error: Failed to load stats');
  },
};

/** The reference server's answer: every card, money with 2 decimals, all-time revenue with 0. */
export const Full: Story = {
  parameters: { msw: { handlers: [statsHandlers.ok(STATS_WIRE)] } },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('region', { name: 'MRR' });
    const expected: Record<string, string> = {
      MRR: '$12,345.00',
      ARR: '$148,140.00',
      Today: '3 new · 11 renewals · 1 cancels',
      Currency: 'USD',
      'Active (Total)': '812',
      'Active (Monthly)': '640',
      'Active (Yearly)': '172',
      'Scheduled Cancellations': '37',
      'Avg Days Remaining': '41.7',
      'Total Subscribers': '3,000',
      'Total Revenue': '$987,654',
    };
    for (const [label, text] of Object.entries(expected)) {
      await expect(cardValue(canvasElement, label)).toHaveTextContent(text, {
        normalizeWhitespace: true,
      });
    }
    await expect(cards(canvasElement)).toHaveLength(Object.keys(expected).length);
  },
};

/**
 * A backend with other spellings (§3 aliases): active_total, revokeDeferredCount,
 * avg_days_remaining, and mrr in whole dollars with cents (1234.5, not cents-named and not a whole
 * number, so read as dollars); ARR falls back to 12 × MRR (§5).
 */
export const AliasSpellings: Story = {
  parameters: {
    msw: {
      handlers: [
        statsHandlers.ok({
          currency: 'usd',
          mrr: 1234.5,
          active_total: 900,
          active_monthly: 700,
          active_yearly: 200,
          revokeDeferredCount: 12,
          avg_days_remaining: 20.25,
          new_today: 2,
          renewals_today: 5,
          cancels_today: 0,
        }),
      ],
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('region', { name: 'MRR' });
    await expect(cardValue(canvasElement, 'MRR')).toHaveTextContent('$1,234.50');
    await expect(cardValue(canvasElement, 'ARR')).toHaveTextContent('$14,814.00');
    await expect(cardValue(canvasElement, 'Currency')).toHaveTextContent('USD');
    await expect(cardValue(canvasElement, 'Active (Total)')).toHaveTextContent('900');
    await expect(cardValue(canvasElement, 'Active (Monthly)')).toHaveTextContent('700');
    await expect(cardValue(canvasElement, 'Active (Yearly)')).toHaveTextContent('200');
    await expect(cardValue(canvasElement, 'Scheduled Cancellations')).toHaveTextContent('12');
    await expect(cardValue(canvasElement, 'Avg Days Remaining')).toHaveTextContent('20.3');
    await expect(cardValue(canvasElement, 'Today')).toHaveTextContent(
      '2 new · 5 renewals · 0 cancels',
      {
        normalizeWhitespace: true,
      },
    );
  },
};

/**
 * The §5 cents rule: mrr 123456 is whole, ≥ 1000 and not in a cents-named field, so it is taken
 * as cents: $1,234.56 (and ARR 12 × that).
 */
export const CentsRule: Story = {
  parameters: {
    msw: {
      handlers: [
        statsHandlers.ok({ currency: 'USD', mrr: 123456, activeMonthly: 10, activeYearly: 5 }),
      ],
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('region', { name: 'MRR' });
    await expect(cardValue(canvasElement, 'MRR')).toHaveTextContent('$1,234.56');
    await expect(cardValue(canvasElement, 'ARR')).toHaveTextContent('$14,814.72');
    // No total sent: monthly + yearly (§3); no average: a dash (§2).
    await expect(cardValue(canvasElement, 'Active (Total)')).toHaveTextContent('15');
    await expect(cardValue(canvasElement, 'Avg Days Remaining')).toHaveTextContent('—');
  },
};

/** All-time figures of zero: their two cards are not shown (§2). */
export const AllTimeHidden: Story = {
  parameters: { msw: { handlers: [statsHandlers.ok(STATS_NO_ALL_TIME_WIRE)] } },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('region', { name: 'MRR' });
    await expect(cards(canvasElement)).toHaveLength(9);
    await expect(canvas.queryByRole('region', { name: 'Total Subscribers' })).toBeNull();
    await expect(canvas.queryByRole('region', { name: 'Total Revenue' })).toBeNull();
  },
};
