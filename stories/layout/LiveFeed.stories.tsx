import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { LiveFeed } from '../../src/components/LiveFeed';
import { FIXTURE_NOW } from '../../tests/msw/fixtures';
import {
  LIVE_MESSAGES_EACH_TYPE,
  LIVE_MESSAGES_LONG_TEXT,
  LIVE_MESSAGES_MANY,
  LIVE_MESSAGES_MISSING_FIELDS,
  LIVE_MESSAGES_MIXED_CURRENCIES,
} from '../../tests/msw/fixtures-live';
import { liveEvents } from '../support/liveEvents';

/**
 * The live activity feed: the last events, newest first, with type, email, provider, amount in its
 * own currency and time (relative and UTC). Shown at the popover's width; the header's button that
 * opens it is Layout/LiveFeedButton.
 */
const meta = {
  title: 'Layout/LiveFeed',
  component: LiveFeed,
  parameters: { layout: 'fullscreen' },
  decorators: [
    (Story) => (
      <div
        style={{
          width: 360,
          margin: 'var(--space-5)',
          border: '1px solid var(--color-border)',
          borderRadius: 'var(--radius-2)',
          background: 'var(--color-surface)',
        }}
      >
        <Story />
      </div>
    ),
  ],
  args: { events: liveEvents(LIVE_MESSAGES_EACH_TYPE), now: new Date(FIXTURE_NOW) },
} satisfies Meta<typeof LiveFeed>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The feed's items, in order. */
function items(canvasElement: HTMLElement): HTMLElement[] {
  return within(canvasElement).getAllByRole('listitem');
}

/** One event of each of the six types, newest first. */
export const EachType: Story = {
  play: async ({ canvasElement, canvas }) => {
    const list = canvas.getByRole('list', { name: 'Latest live events' });
    await expect(list).toBeVisible();
    const rows = items(canvasElement);
    await expect(rows.map((row) => row.getAttribute('data-type'))).toEqual([
      'subscription.new',
      'access.granted',
      'subscription.renewal',
      'isr.event',
      'subscription.cancelled',
      'access.revoked',
    ]);
    const [sale, granted, renewal, isr, cancelled, revoked] = rows as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    await expect(sale).toHaveTextContent('New subscription');
    await expect(sale).toHaveTextContent('$47.00');
    await expect(sale).toHaveTextContent('ada.lovelace@example.com');
    await expect(sale).toHaveTextContent('LemonSqueezy · just now · 2026-11-20 11:59 UTC');
    await expect(granted).toHaveTextContent('Access granted');
    await expect(renewal).toHaveTextContent('Renewal');
    await expect(renewal).toHaveTextContent('$97.00');
    await expect(renewal).toHaveTextContent('ClickBank · 12 min ago · 2026-11-20 11:48 UTC');
    await expect(isr).toHaveTextContent('Tracked sale');
    await expect(cancelled).toHaveTextContent('Cancellation');
    await expect(cancelled).toHaveTextContent('1 h ago');
    await expect(revoked).toHaveTextContent('Access revoked');
    await expect(revoked).toHaveTextContent('1 d ago · 2026-11-19 10:00 UTC');
    // Access changes and a cancellation carry no amount: nothing is shown for it.
    for (const row of [granted, cancelled, revoked])
      await expect(row.textContent ?? '').not.toMatch(/\$/);
    // Machine-readable times.
    await expect(
      within(sale).getByText('just now', { exact: false }).closest('time'),
    ).toHaveAttribute('datetime', '2026-11-20T11:59:30.000Z');
  },
};

/** Nothing arrived yet. */
export const Empty: Story = {
  args: { events: [] },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No live events yet')).toBeVisible();
    await expect(
      canvas.getByText(
        'New sales, renewals, cancellations and access changes appear here as they happen.',
      ),
    ).toBeVisible();
    await expect(canvas.queryByRole('list')).toBeNull();
  },
};

/** Each amount in its own currency (EUR, GBP, JPY, USD), a refund, and a large sale. */
export const MixedCurrencies: Story = {
  args: { events: liveEvents(LIVE_MESSAGES_MIXED_CURRENCIES) },
  play: async ({ canvasElement }) => {
    const amounts = items(canvasElement).map(
      (row) => row.querySelector('[data-sign]')?.textContent,
    );
    await expect(amounts).toEqual(['€39.00', '£129.99', '¥9,800.00', '-$47.00', '$1,234,567.89']);
    await expect(items(canvasElement)[3]?.querySelector('[data-sign]')).toHaveAttribute(
      'data-sign',
      'negative',
    );
  },
};

/** A very long email is truncated with the full text as a tooltip; an unknown provider as sent. */
export const LongText: Story = {
  args: { events: liveEvents(LIVE_MESSAGES_LONG_TEXT) },
  play: async ({ canvasElement, canvas }) => {
    const email =
      'maximiliane.alexandra.fitzgerald-montgomery.the-third+newsletter-signup@subdomain.example-company.co.uk';
    const shown = canvas.getByText(email);
    await expect(shown).toHaveAttribute('title', email);
    await expect(shown.scrollWidth).toBeGreaterThan(shown.clientWidth);
    // Nothing spills out of the panel.
    const panel = canvasElement.firstElementChild as HTMLElement;
    await expect(panel.scrollWidth).toBeLessThanOrEqual(panel.clientWidth);
    await expect(items(canvasElement)[0]).toHaveTextContent('$999,999.99');
    await expect(items(canvasElement)[0]).toHaveTextContent('paddlemarketplacelegacyintegration');
  },
};

/** Missing email, amount, currency, provider or time: a dash, USD, 'Unknown provider', no time. */
export const MissingFields: Story = {
  args: { events: liveEvents(LIVE_MESSAGES_MISSING_FIELDS) },
  play: async ({ canvasElement }) => {
    const [noEmail, noAmount, noCurrency, noTime] = items(canvasElement) as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    await expect(noEmail).toHaveTextContent('—');
    await expect(within(noEmail).getByText('No email')).toHaveClass('visually-hidden');
    await expect(noEmail).toHaveTextContent('$47.00');
    await expect(noAmount).toHaveTextContent('no-amount@example.com');
    await expect(noAmount.querySelector('[data-sign]')).toBeNull();
    // No currency sent: the specification's default, USD.
    await expect(noCurrency).toHaveTextContent('$25.00');
    await expect(noCurrency).toHaveTextContent('Unknown provider');
    await expect(noTime.querySelector('time')).toBeNull();
    await expect(noTime).toHaveTextContent('ClickBank');
  },
};

/** The cap: fifty events, newest first (in the header the panel scrolls). */
export const Many: Story = {
  args: { events: liveEvents(LIVE_MESSAGES_MANY) },
  play: async ({ canvasElement }) => {
    const rows = items(canvasElement);
    await expect(rows).toHaveLength(50);
    await expect(rows[0]).toHaveTextContent('customer50@example.com');
    await expect(rows[49]).toHaveTextContent('customer01@example.com');
  },
};
