import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, spyOn, userEvent, waitFor, within } from 'storybook/test';
import { IsrScreen } from '../../src/screens/IsrScreen';
import { ISR_CSV_COLUMNS } from '../../src/domain/isr-csv';
import { ISR_EVENTS, makeIsrSummaryWire } from '../../tests/msw/fixtures-metrics';
import {
  isrAffiliatesHandlers,
  isrDailyHandlers,
  isrEventsHandlers,
  isrSummaryHandlers,
} from '../../tests/msw/handlers-metrics';
import { recordRequests } from '../support/requests';
import { withScreen } from '../support/withScreen';

const WAIT = { timeout: 8000 } as const;
const events = recordRequests('/isr-events');
const summary = recordRequests('/isr-metrics/summary');

const okHandlers = () => [
  events.handler,
  summary.handler,
  isrSummaryHandlers.ok(),
  isrDailyHandlers.ok(),
  isrAffiliatesHandlers.ok(),
  isrEventsHandlers.list(),
];

/**
 * The Integrated Tracking screen (§2) against mocked ISR endpoints: the default 14 days, range
 * buttons, the search form (source clickbank by default, Search back to page 1), paging, the CSV
 * export, and its loading and empty states.
 */
const meta = {
  title: 'Screens/Isr',
  component: IsrScreen,
  decorators: [withScreen],
  parameters: { screen: { route: '/isr' }, msw: { handlers: okHandlers() } },
  beforeEach: () => {
    events.reset();
    summary.reset();
  },
} satisfies Meta<typeof IsrScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

function cardValue(canvasElement: HTMLElement, label: string): HTMLElement {
  const card = within(canvasElement).getByRole('region', { name: label });
  const value = card.querySelector('h3 + p');
  if (!(value instanceof HTMLElement)) throw new globalThis.Error(`card ${label} has no value`);
  return value;
}
const usd2 = (cents: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
  }).format(cents / 100);
const CLICKBANK_EVENTS = ISR_EVENTS.filter((e) => e.source === 'clickbank');

/**
 * Ends an interactive play where a screenshot is stable: focus dropped and the page scrolled back
 * to the top (a tall screen is captured from the same scroll position every run).
 */
async function settle(): Promise<void> {
  if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  window.scrollTo(0, 0);
  await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
}

/** Default: 14D, the cards, the four charts, ClickBank events page 1 of 2 (§2, §9). */
export const Default: Story = {
  play: async ({ canvas, canvasElement }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Integrated Tracking (First-Party)' }),
    ).toBeVisible();
    await expect(canvas.getByRole('button', { name: '14D' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const s = makeIsrSummaryWire(14);
    await waitFor(
      () =>
        expect(cardValue(canvasElement, 'Total revenue')).toHaveTextContent(
          usd2(s.total_amount_cents),
        ),
      WAIT,
    );
    await expect(cardValue(canvasElement, 'Avg order (approx)')).toHaveTextContent(
      usd2(Math.round(s.total_amount_cents / s.total_events)),
    );
    await expect(summary.params()[0]).toEqual({
      from: '2026-11-07 00:00:00',
      to: '2026-11-20 12:00:00',
    });
    await waitFor(() => expect(events.params()).toHaveLength(1), WAIT);
    await expect(events.params()[0]).toEqual({
      source: 'clickbank',
      time_from: '2026-11-07 00:00:00',
      time_to: '2026-11-20 12:00:00',
      page: '1',
      pageSize: '50',
    });
    const table = await canvas.findByRole('table', { name: 'ISR events' });
    // 80 ClickBank events + the header row; the 50 of this page are virtualised as they scroll.
    await waitFor(
      () => expect(table).toHaveAttribute('aria-rowcount', String(CLICKBANK_EVENTS.length + 1)),
      WAIT,
    );
    await expect(within(table).getByText(CLICKBANK_EVENTS[0]!.customer_email)).toBeVisible();
    await expect(canvas.getByText(`Total: ${CLICKBANK_EVENTS.length} events`)).toBeVisible();
    await expect(canvas.getByText('Page 1 / 2')).toBeVisible();
    for (const name of [
      'Daily revenue by provider',
      'Daily events count',
      'Top affiliates by revenue',
      'Provider split by revenue',
    ])
      await expect(await canvas.findByRole('region', { name }, WAIT)).toBeVisible();
    await settle();
  },
};

/** 30D: every load asks for the start of 2026-10-22 through now (§4). Next pages the events. */
export const RangeAndPaging: Story = {
  play: async ({ canvas }) => {
    await canvas.findByRole('table', { name: 'ISR events' }, WAIT);
    await userEvent.click(canvas.getByRole('button', { name: '30D' }));
    await waitFor(
      () =>
        expect(summary.params().at(-1)).toEqual({
          from: '2026-10-22 00:00:00',
          to: '2026-11-20 12:00:00',
        }),
      WAIT,
    );
    await waitFor(
      () =>
        expect(events.params().at(-1)).toMatchObject({
          time_from: '2026-10-22 00:00:00',
          page: '1',
        }),
      WAIT,
    );
    await waitFor(() => expect(canvas.getByText('Page 1 / 2')).toBeVisible(), WAIT);
    await userEvent.click(canvas.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(events.params().at(-1)).toMatchObject({ page: '2' }), WAIT);
    await waitFor(() => expect(canvas.getByText('Page 2 / 2')).toBeVisible(), WAIT);
    await settle();
  },
};

/** Search applies the form and returns to page 1 (§4); typing alone sends nothing. */
export const SearchResetsToPageOne: Story = {
  parameters: { screen: { route: '/isr?page=2' } },
  play: async ({ canvas }) => {
    await waitFor(() => expect(events.params()).toHaveLength(1), WAIT);
    await expect(events.params()[0]).toMatchObject({ page: '2' });
    await userEvent.type(canvas.getByLabelText('Affiliate'), 'superaff');
    await userEvent.selectOptions(canvas.getByLabelText('Source'), 'any');
    await expect(events.params()).toHaveLength(1);
    await userEvent.click(canvas.getByRole('button', { name: 'Search' }));
    await waitFor(
      () => expect(events.params().at(-1)).toMatchObject({ affiliate: 'superaff', page: '1' }),
      WAIT,
    );
    await expect(events.params().at(-1)).not.toHaveProperty('source');
    const expected = ISR_EVENTS.filter((e) => e.affiliate === 'superaff').length;
    await waitFor(() => expect(canvas.getByText(`Total: ${expected} events`)).toBeVisible(), WAIT);
    await settle();
  },
};

/** Export CSV: isr-events_page1.csv, the 13 §9 columns, amount in currency units. */
export const ExportCsv: Story = {
  parameters: { screenshot: false },
  play: async ({ canvas }) => {
    const table = await canvas.findByRole('table', { name: 'ISR events' }, WAIT);
    await waitFor(
      () => expect(table).toHaveAttribute('aria-rowcount', String(CLICKBANK_EVENTS.length + 1)),
      WAIT,
    );
    const created = spyOn(URL, 'createObjectURL');
    // The download itself is the browser's business: the click is recorded, not performed.
    const click = spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      await userEvent.click(canvas.getByRole('button', { name: 'Export CSV' }));
      await expect(click).toHaveBeenCalledOnce();
      const anchor = click.mock.contexts[0] as HTMLAnchorElement;
      await expect(anchor.download).toBe('isr-events_page1.csv');
      const blob = created.mock.calls[0]![0] as Blob;
      const lines = (await blob.text()).split('\r\n');
      await expect(lines[0]).toBe(ISR_CSV_COLUMNS.join(','));
      await expect(lines).toHaveLength(51);
      const first = CLICKBANK_EVENTS[0]!;
      await expect(lines[1]).toContain(
        `${first.id},${first.created_at},clickbank,${first.order_id},${first.receipt}`,
      );
      await expect(lines[1]).toContain(`,${(first.amount_cents / 100).toFixed(2)},USD,`);
    } finally {
      click.mockRestore();
      created.mockRestore();
    }
  },
};

/** No events in range: 'No events', 'Total: 0 events'. */
export const NoEvents: Story = {
  parameters: {
    msw: {
      handlers: [
        isrSummaryHandlers.empty(),
        isrDailyHandlers.empty(),
        isrAffiliatesHandlers.empty(),
        isrEventsHandlers.empty(),
      ],
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await expect(await canvas.findByText('No events', {}, WAIT)).toBeVisible();
    await expect(canvas.getByText('Total: 0 events')).toBeVisible();
    await waitFor(
      () => expect(cardValue(canvasElement, 'Total revenue')).toHaveTextContent('—'),
      WAIT,
    );
  },
};

/** The events call fails: still 'No events', no error text (§8). */
export const EventsError: Story = {
  parameters: {
    msw: {
      handlers: [
        isrSummaryHandlers.ok(),
        isrDailyHandlers.ok(),
        isrAffiliatesHandlers.ok(),
        isrEventsHandlers.error(),
      ],
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No events', {}, WAIT)).toBeVisible();
    await expect(canvas.queryByText(/ISR events query failed/)).toBeNull();
  },
};

/**
 * The summary call fails: the four cards show a dash and no message, since the ISR events page
 * shows no error messages (§8); the Metrics page's 'ISR: …' line is not repeated here.
 */
export const SummaryError: Story = {
  parameters: {
    msw: {
      handlers: [
        isrSummaryHandlers.error(500, 'ISR summary query failed'),
        isrDailyHandlers.ok(),
        isrAffiliatesHandlers.ok(),
        isrEventsHandlers.list(),
      ],
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const table = await canvas.findByRole('table', { name: 'ISR events' }, WAIT);
    await waitFor(
      () => expect(table).toHaveAttribute('aria-rowcount', String(CLICKBANK_EVENTS.length + 1)),
      WAIT,
    );
    for (const label of [
      'Total revenue',
      'ClickBank-side revenue',
      'LemonSqueezy-side revenue',
      'Avg order (approx)',
    ])
      await waitFor(() => expect(cardValue(canvasElement, label)).toHaveTextContent('—'), WAIT);
    await expect(canvas.queryByText(/ISR summary query failed/)).toBeNull();
    await expect(canvas.queryByText(/^ISR:/)).toBeNull();
    await expect(canvas.queryByRole('alert')).toBeNull();
    await settle();
  },
};

/** Everything loading: '…' cards and 'Refreshing…'. */
export const Loading: Story = {
  parameters: {
    msw: {
      handlers: [
        isrSummaryHandlers.loading(),
        isrDailyHandlers.loading(),
        isrAffiliatesHandlers.loading(),
        isrEventsHandlers.loading(),
      ],
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await expect(await canvas.findByRole('button', { name: 'Refreshing…' })).toBeDisabled();
    await expect(cardValue(canvasElement, 'Total revenue')).toHaveTextContent('…');
  },
};
