import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, HttpResponse } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { CustomerScreen } from '../../src/screens/CustomerScreen';
import { makeTimelineWireItems } from '../../tests/msw/fixtures-customers';
import { actionHandlers, api, whoamiHandlers } from '../../tests/msw/handlers';
import {
  customerHandlers,
  forumRetryHandlers,
  timelineHandlers,
} from '../../tests/msw/handlers-customers';
import { whoamiWire } from '../../tests/msw/fixtures-account';
import { recordCalls, seen } from '../flows/handlers';
import { screenRouter, withScreen } from '../support/withScreen';

/**
 * The customer page wired to the API (MSW per story) inside the real router at
 * /customers/johndoe%40example.com (docs/api.md "Customers").
 */
const meta = {
  title: 'Screens/Customer',
  component: CustomerScreen,
  decorators: [withScreen],
  parameters: {
    layout: 'fullscreen',
    screen: { route: '/customers/johndoe%40example.com', path: '/customers/:email' },
    msw: {
      handlers: [
        recordCalls,
        whoamiHandlers.signedIn(),
        customerHandlers.ok(),
        timelineHandlers.ok(),
        forumRetryHandlers.ok(),
        actionHandlers.updated(),
      ],
    },
  },
  beforeEach() {
    seen.length = 0;
  },
} satisfies Meta<typeof CustomerScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const WAIT = { timeout: 8000 } as const;

/** The record and the first timeline page load; the address's email names the page. */
export const Ready: Story = {
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'johndoe@example.com' }, WAIT),
    ).toBeVisible();
    const timeline = await canvas.findByRole('region', { name: 'Timeline' }, WAIT);
    await waitFor(() => expect(within(timeline).getAllByRole('listitem')).toHaveLength(8), WAIT);
  },
};

/**
 * A kind chip narrows the timeline and is kept in the URL (`?kind=forum`); 'All' clears it.
 */
export const KindsInTheUrl: Story = {
  play: async ({ canvas }) => {
    const timeline = await canvas.findByRole('region', { name: 'Timeline' }, WAIT);
    await waitFor(() => expect(within(timeline).getAllByRole('listitem')).toHaveLength(8), WAIT);
    await userEvent.click(within(timeline).getByRole('button', { name: 'Forum' }));
    await waitFor(() => expect(screenRouter().state.location.search).toBe('?kind=forum'));
    await waitFor(() => expect(within(timeline).getAllByRole('listitem')).toHaveLength(1), WAIT);
    await userEvent.click(within(timeline).getByRole('button', { name: 'Access' }));
    await waitFor(() => expect(screenRouter().state.location.search).toBe('?kind=access%2Cforum'));
    await userEvent.click(within(timeline).getByRole('button', { name: 'All' }));
    await waitFor(() => expect(screenRouter().state.location.search).toBe(''));
    await waitFor(() => expect(within(timeline).getAllByRole('listitem')).toHaveLength(8), WAIT);
  },
};

/** A deep link with kinds opens with those chips pressed and asks for those kinds only. */
export const DeepLinkWithKinds: Story = {
  parameters: { screen: { route: '/customers/johndoe%40example.com?kind=webhook,refund' } },
  play: async ({ canvas }) => {
    const timeline = await canvas.findByRole('region', { name: 'Timeline' }, WAIT);
    await waitFor(() => expect(within(timeline).getAllByRole('listitem')).toHaveLength(2), WAIT);
    await expect(within(timeline).getByRole('button', { name: 'Webhook' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(within(timeline).getByRole('button', { name: 'Log' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  },
};

/** 5,000 entries: 50 at a time, 'Show older' appends the next 50 without reloading the first. */
export const FiveThousandEntries: Story = {
  parameters: {
    msw: {
      handlers: [
        whoamiHandlers.signedIn(),
        customerHandlers.ok(),
        timelineHandlers.ok(makeTimelineWireItems(5000)),
      ],
    },
  },
  play: async ({ canvas }) => {
    const timeline = await canvas.findByRole('region', { name: 'Timeline' }, WAIT);
    await waitFor(() => expect(within(timeline).getAllByRole('listitem')).toHaveLength(50), WAIT);
    await userEvent.click(within(timeline).getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(within(timeline).getAllByRole('listitem')).toHaveLength(100), WAIT);
    const items = within(timeline).getAllByRole('listitem');
    await expect(items[50]).toHaveTextContent('Event 4950');
    await expect(new Set(items.map((i) => i.textContent)).size).toBe(100);
  },
};

/** Revoke now from the page's own menu: POST, the result, and the record reloads. */
export const RevokeNow: Story = {
  play: async ({ canvas }) => {
    await userEvent.click(
      await canvas.findByRole('button', { name: 'Edit access for johndoe@example.com' }, WAIT),
    );
    await userEvent.click(
      await within(document.body).findByRole('menuitem', { name: 'Revoke now' }),
    );
    const dialog = await within(document.body).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: /Revoke/ }));
    await expect(await canvas.findByText(/^OK/, {}, WAIT)).toBeVisible();
    await waitFor(() =>
      expect(seen.filter((r) => r.startsWith('POST'))).toEqual([
        expect.stringMatching(/^POST \/api\/admin\/users\/actions\/revoke/),
      ]),
    );
    // The record is asked for again after the change.
    await waitFor(
      () =>
        expect(
          seen.filter((r) => r === 'GET /api/admin/customers/johndoe%40example.com'),
        ).toHaveLength(2),
      WAIT,
    );
  },
};

/** 'Retry now' on the failed forum job: POST …/forum-jobs/41/retry, its result, a reload. */
export const RetryForumJob: Story = {
  play: async ({ canvas }) => {
    const forum = await canvas.findByRole('region', { name: 'Forum' }, WAIT);
    await userEvent.click(
      within(forum).getByRole('button', { name: /^Retry now\W*grant job 41$/ }),
    );
    await expect(await canvas.findByText('Forum job 41 queued to run now', {}, WAIT)).toBeVisible();
    await expect(seen).toContain(
      'POST /api/admin/customers/johndoe%40example.com/forum-jobs/41/retry',
    );
    await waitFor(
      () =>
        expect(
          seen.filter((r) => r === 'GET /api/admin/customers/johndoe%40example.com'),
        ).toHaveLength(2),
      WAIT,
    );
  },
};

/** A refused retry (the job is no longer failed): the server's message. */
export const RetryRefused: Story = {
  parameters: {
    msw: {
      handlers: [
        whoamiHandlers.signedIn(),
        customerHandlers.ok(),
        timelineHandlers.ok(),
        forumRetryHandlers.error(),
      ],
    },
  },
  play: async ({ canvas }) => {
    const forum = await canvas.findByRole('region', { name: 'Forum' }, WAIT);
    await userEvent.click(
      within(forum).getByRole('button', { name: /^Retry now\W*grant job 41$/ }),
    );
    await expect(
      await canvas.findByText('Only a failed job can be retried', {}, WAIT),
    ).toBeVisible();
  },
};

/** A viewer: the access menu and Retry now are disabled with the reason. */
export const Viewer: Story = {
  parameters: {
    msw: {
      handlers: [
        http.get(api('/auth/whoami'), () => HttpResponse.json(whoamiWire({ role: 'viewer' }))),
        customerHandlers.ok(),
        timelineHandlers.ok(),
      ],
    },
  },
  play: async ({ canvas }) => {
    const edit = await canvas.findByRole(
      'button',
      { name: 'Edit access for johndoe@example.com' },
      WAIT,
    );
    await waitFor(() => expect(edit).toHaveAttribute('aria-disabled', 'true'), WAIT);
  },
};

/** An email the server does not know: 'No customer with this email.' */
export const NotFound: Story = {
  parameters: { screen: { route: '/customers/nobody%40example.com' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No customer with this email.', {}, WAIT)).toBeVisible();
    await expect(
      canvas.getByRole('heading', { level: 1, name: 'nobody@example.com' }),
    ).toBeVisible();
  },
};

/** A malformed answer: the page's own message instead of a blank screen. */
export const Malformed: Story = {
  parameters: {
    msw: { handlers: [whoamiHandlers.signedIn(), customerHandlers.malformed()] },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Failed to load customer', {}, WAIT)).toBeVisible();
  },
};

/** The record loads but the timeline fails: the page stands, the timeline offers Retry. */
export const TimelineFails: Story = {
  parameters: {
    msw: {
      handlers: [
        whoamiHandlers.signedIn(),
        customerHandlers.ok(),
        timelineHandlers.error(500, 'Timeline query failed'),
      ],
    },
  },
  play: async ({ canvas }) => {
    const timeline = await canvas.findByRole('region', { name: 'Timeline' }, WAIT);
    await expect(
      await within(timeline).findByText('Timeline query failed', {}, WAIT),
    ).toBeVisible();
    await expect(canvas.getByRole('region', { name: 'Money' })).toBeVisible();
  },
};

/** While the record loads. */
export const Loading: Story = {
  parameters: { msw: { handlers: [whoamiHandlers.signedIn(), customerHandlers.loading()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Loading customer…', {}, WAIT)).toBeVisible();
  },
};
