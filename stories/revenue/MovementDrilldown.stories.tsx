import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { MovementDrilldown } from '../../src/components/RevenueView/MovementDrilldown';
import { customerPath } from '../../src/domain/customer';
import type { MovementSubscription } from '../../src/domain/revenue';
import { MOVEMENT_LIST_WIRE } from '../../tests/msw/fixtures-revenue';
import { withRouter } from '../support/withRouter';

const ROWS: MovementSubscription[] = MOVEMENT_LIST_WIRE.rows.map((r) => ({
  subscriptionId: r.subscription_id,
  email: String(r.email),
  provider: String(r.provider),
  plan: String(r.plan),
  cadence: String(r.cadence),
  at: r.at,
  kind: 'churn',
  deltaCents: Number(r.delta_reporting_cents),
}));

/** The subscriptions behind one movement bar, largest changes first, each linked to its customer. */
const meta = {
  title: 'Revenue/MovementDrilldown',
  component: MovementDrilldown,
  decorators: [withRouter],
  args: {
    selection: { date: '2026-10-01', kind: 'churn' },
    state: { status: 'ready', data: { total: ROWS.length, rows: ROWS } },
    currency: 'USD',
    customerPath,
    onClose: fn(),
  },
} satisfies Meta<typeof MovementDrilldown>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Three churned subscriptions: the count, the table, links to each customer's page; Close closes. */
export const Ready: Story = {
  play: async ({ canvas, args }) => {
    const region = canvas.getByRole('region', { name: 'Subscriptions behind Churn on 2026-10-01' });
    await expect(region).toHaveTextContent('3 changes');
    const table = within(region).getByRole('table', { name: 'Churn on 2026-10-01' });
    const rows = within(table).getAllByRole('row');
    await expect(rows).toHaveLength(4);
    await expect(rows[1]).toHaveTextContent('ada@example.comlemonsqueezyPremiummonthly');
    await expect(rows[1]).toHaveTextContent('-$29.00');
    await expect(within(table).getByRole('link', { name: '=cmd@example.org' })).toHaveAttribute(
      'href',
      '/customers/%3Dcmd%40example.org',
    );
    await userEvent.click(within(region).getByRole('button', { name: 'Close' }));
    await expect(args.onClose).toHaveBeenCalledOnce();
  },
};

/** One change: the count reads in the singular. */
export const OneChange: Story = {
  args: {
    selection: { date: '2026-11-01', kind: 'new' },
    state: {
      status: 'ready',
      data: { total: 1, rows: [{ ...ROWS[0]!, kind: 'new', deltaCents: 2900 }] },
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('1 change')).toBeVisible();
    await expect(
      canvas.getByRole('heading', { name: 'Subscriptions behind New on 2026-11-01' }),
    ).toBeVisible();
  },
};

/** More changes than the list holds: it says the largest N of the total. */
export const Capped: Story = {
  args: { state: { status: 'ready', data: { total: 240, rows: ROWS } } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('The 3 largest of 240 changes')).toBeVisible();
  },
};

/**
 * Mixed currencies: changes are shown in the reporting currency (EUR here); a change with no
 * exchange rate shows a dash instead of a made-up figure.
 */
export const MixedCurrencies: Story = {
  args: {
    currency: 'EUR',
    state: {
      status: 'ready',
      data: {
        total: 2,
        rows: [
          { ...ROWS[0]!, deltaCents: -2671 },
          { ...ROWS[1]!, deltaCents: null },
        ],
      },
    },
  },
  play: async ({ canvas }) => {
    const rows = canvas.getAllByRole('row');
    await expect(rows[1]).toHaveTextContent('-€26.71');
    await expect(rows[2]!.lastElementChild).toHaveTextContent('—');
  },
};

/** A long email and plan stay in the scrolling table. */
export const LongText: Story = {
  args: {
    state: {
      status: 'ready',
      data: {
        total: 1,
        rows: [
          {
            ...ROWS[0]!,
            email: 'maximiliane.fitzgerald-montgomery@customer-success.example.com',
            plan: 'Premium Lifetime Forum Access with Priority Support (legacy 2019 price)',
          },
        ],
      },
    },
  },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByRole('link', {
        name: 'maximiliane.fitzgerald-montgomery@customer-success.example.com',
      }),
    ).toBeVisible();
    await expect(canvas.getByText(/legacy 2019 price/)).toBeVisible();
  },
};

/** Loading the list. */
export const Loading: Story = {
  args: { state: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading…');
    await expect(canvas.queryByRole('table')).toBeNull();
  },
};

/** The list failed: the message; Close still works. */
export const Error: Story = {
  args: { state: { status: 'error', message: 'Internal server error' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('Error: Internal server error')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Close' }));
    await expect(args.onClose).toHaveBeenCalledOnce();
  },
};

/** No subscriptions behind the bar. */
export const Empty: Story = {
  args: { state: { status: 'empty' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No subscriptions.')).toBeVisible();
    await expect(canvas.queryByRole('table')).toBeNull();
  },
};
