import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, HttpResponse } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { WebhooksScreen } from '../../src/screens/WebhooksScreen';
import { whoamiWire } from '../../tests/msw/fixtures-account';
import { api } from '../../tests/msw/handlers';
import { webhooksHandlers } from '../../tests/msw/handlers-webhooks';
import { recordCalls, seen } from '../flows/handlers';
import { recordRequests } from '../support/requests';
import { screenRouter, withScreen } from '../support/withScreen';

const WAIT = { timeout: 8000 } as const;
const deliveries = recordRequests('/webhook-deliveries');

/** GET /auth/whoami answering an operator of `role` (the screen reads the role for Replay). */
const whoami = (role: 'viewer' | 'admin') =>
  http.get(api('/auth/whoami'), () => HttpResponse.json(whoamiWire({ role })));

/**
 * The Webhooks screen (docs/api.md "Webhook deliveries") inside the real router at /webhooks:
 * the inbox list over mocked GET /webhook-deliveries with its filters in the URL, a delivery's
 * drawer (GET /webhook-deliveries/:id), Replay for an admin (POST …/replay) and not for a viewer,
 * a failed load and an empty inbox.
 */
const meta = {
  title: 'Screens/Webhooks',
  component: WebhooksScreen,
  decorators: [withScreen],
  parameters: {
    layout: 'fullscreen',
    screen: { route: '/webhooks' },
    msw: {
      handlers: [recordCalls, deliveries.handler, whoami('admin'), ...webhooksHandlers.all()],
    },
  },
  beforeEach: () => {
    deliveries.reset();
    seen.length = 0;
  },
} satisfies Meta<typeof WebhooksScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The inbox's table, once its rows are in. */
async function loadedTable(canvas: ReturnType<typeof within>) {
  const table = await canvas.findByRole('table', { name: 'Webhook deliveries' }, WAIT);
  await within(table).findAllByRole('button', { name: /^View delivery / }, WAIT);
  return table;
}

/** Opens delivery `id`'s drawer from its row. */
async function openDelivery(canvas: ReturnType<typeof within>, id: number) {
  const table = await loadedTable(canvas);
  await userEvent.click(
    within(table).getByRole('button', { name: new RegExp(`View delivery ${id}`) }),
  );
  return within(document.body).findByRole('dialog', { name: 'Webhook delivery' }, WAIT);
}

/** Every delivery, newest first, on page 1. */
export const Ready: Story = {
  play: async ({ canvas }) => {
    const table = await loadedTable(canvas);
    const [, first] = within(table).getAllByRole('row');
    await expect(first).toHaveTextContent('subscription_created');
    await expect(first).toHaveTextContent('Applied');
    await expect(within(table).getByRole('row', { name: /Refused \(signature\)/ })).toBeVisible();
    await expect(deliveries.params()).toEqual([expect.objectContaining({ page: '1' })]);
  },
};

/** The outcome and provider filters go to the URL and the request at once, on page 1. */
export const FiltersInTheUrl: Story = {
  play: async ({ canvas }) => {
    await loadedTable(canvas);
    await userEvent.selectOptions(canvas.getByLabelText('Outcome'), 'failed');
    await waitFor(() => expect(screenRouter().state.location.search).toBe('?outcome=failed'));
    await waitFor(() =>
      expect(deliveries.params().at(-1)).toMatchObject({ outcome: 'failed', page: '1' }),
    );
    await userEvent.selectOptions(canvas.getByLabelText('Provider'), 'lemonsqueezy');
    await waitFor(() =>
      expect(new URLSearchParams(screenRouter().state.location.search).get('provider')).toBe(
        'lemonsqueezy',
      ),
    );
    await waitFor(() =>
      expect(deliveries.params().at(-1)).toMatchObject({
        outcome: 'failed',
        provider: 'lemonsqueezy',
      }),
    );
    const table = await loadedTable(canvas);
    for (const row of within(table).getAllByRole('row').slice(1))
      await expect(row).toHaveTextContent('Failed');
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A deep link with a filter opens with the field set and asks for it. */
export const DeepLinkWithFilters: Story = {
  parameters: { screen: { route: '/webhooks?provider=clickbank' } },
  play: async ({ canvas }) => {
    await loadedTable(canvas);
    await expect(canvas.getByLabelText('Provider')).toHaveValue('clickbank');
    await expect(deliveries.params()).toEqual([expect.objectContaining({ provider: 'clickbank' })]);
  },
};

/** View on a delivery opens its drawer with the detail (GET /webhook-deliveries/112). */
export const DeliveryDrawer: Story = {
  play: async ({ canvas }) => {
    const drawer = await openDelivery(canvas, 112);
    await expect(
      await within(drawer).findByRole('region', { name: 'Payload' }, WAIT),
    ).toBeVisible();
    await expect(seen).toContain('GET /api/admin/webhook-deliveries/112');
  },
};

/** An admin replays a delivery: POST …/112/replay, the result, and the list reloads. */
export const ReplayAsAdmin: Story = {
  play: async ({ canvas }) => {
    const drawer = await openDelivery(canvas, 112);
    const replay = await within(drawer).findByRole('button', { name: 'Replay' }, WAIT);
    await waitFor(() => expect(replay).toBeEnabled(), WAIT);
    await userEvent.click(replay);
    await expect(await within(drawer).findByRole('status', {}, WAIT)).toHaveTextContent(
      'Already applied: nothing changed.',
    );
    await expect(seen).toContain('POST /api/admin/webhook-deliveries/112/replay');
    await waitFor(() => expect(deliveries.params()).toHaveLength(2), WAIT);
  },
};

/** A viewer sees Replay disabled with the reason, and nothing is posted. */
export const ReplayDisabledForViewer: Story = {
  parameters: {
    msw: {
      handlers: [recordCalls, deliveries.handler, whoami('viewer'), ...webhooksHandlers.all()],
    },
  },
  play: async ({ canvas }) => {
    const drawer = await openDelivery(canvas, 112);
    const replay = await within(drawer).findByRole('button', { name: 'Replay' }, WAIT);
    await waitFor(() => expect(seen).toContain('GET /api/admin/auth/whoami'), WAIT);
    // Until who-am-I answers the role is unknown and Replay stays enabled.
    await waitFor(() => expect(replay).toBeDisabled(), WAIT);
    await expect(replay).toHaveAccessibleDescription('Replaying needs the admin role.');
    await expect(seen.filter((c) => c.startsWith('POST'))).toEqual([]);
  },
};

/** A failed load: the screen's own sentence (not the server's) with Retry. */
export const Error: Story = {
  parameters: {
    msw: { handlers: [whoami('admin'), ...webhooksHandlers.error(500, 'Inbox query failed')] },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('alert', {}, WAIT)).toHaveTextContent(
      'Failed to load webhook deliveries',
    );
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeVisible();
  },
};

/** No deliveries: 'No webhook deliveries found.'. */
export const Empty: Story = {
  parameters: { msw: { handlers: [whoami('admin'), ...webhooksHandlers.empty()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No webhook deliveries found.', {}, WAIT)).toBeVisible();
  },
};
