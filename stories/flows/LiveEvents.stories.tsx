import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { SOUND_STORAGE_KEY, TOKEN_STORAGE_KEY } from '../../src/domain/types';
import { statsHandlers, whoamiHandlers } from '../../tests/msw/handlers';
import { liveStreamHandlers } from '../../tests/msw/handlers-live';
import { minutesAgo } from '../../tests/msw/fixtures-live';
import { FlowApp } from './FlowApp';
import { LAZY, plays, recordCalls, seen, stubAudio } from './handlers';

/** The stream the SaleRefreshesDashboard story drives. */
const stream = liveStreamHandlers.controlled();

/** How many times the dashboard figures were fetched. */
const statsCalls = () => seen.filter((call) => call === 'GET /api/admin/stats').length;

/**
 * Live events with the app's real routes: the header's stream indicator and activity feed, and a
 * live sale refreshing the figures on screen, once.
 */
const meta = {
  title: 'Flows/LiveEvents',
  component: FlowApp,
  args: { initialEntry: '/' },
  parameters: { layout: 'fullscreen' },
  beforeEach() {
    seen.length = 0;
    localStorage.setItem(TOKEN_STORAGE_KEY, 'flow-token');
    localStorage.setItem(SOUND_STORAGE_KEY, '1');
    return stubAudio();
  },
} satisfies Meta<typeof FlowApp>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * A sale arrives on the open stream: the new-subscription sound plays, the dashboard refetches its
 * figures exactly once, and the Activity button counts it; the feed shows it; Escape returns focus.
 */
export const SaleRefreshesDashboard: Story = {
  parameters: {
    msw: { handlers: [recordCalls, whoamiHandlers.signedIn(), statsHandlers.ok(), stream.handler] },
  },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('region', { name: 'MRR' }, LAZY);
    await canvas.findByRole('status', { name: 'Live updates: Connected' }, LAZY);
    await expect(statsCalls()).toBe(1);
    stream.send({
      id: '501',
      type: 'subscription.new',
      email: 'ada.lovelace@example.com',
      provider: 'lemonsqueezy',
      amount_cents: 4700,
      currency: 'USD',
      at: minutesAgo(0),
    });
    const button = await canvas.findByRole('button', { name: 'Live activity, 1 unread' }, LAZY);
    await waitFor(() => expect(statsCalls()).toBe(2));
    await waitFor(() => expect(plays).toEqual([{ sound: 'sounds/new-sub.mp3', muted: false }]));
    // A second look a little later: still one refetch (no storm).
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await expect(statsCalls()).toBe(2);
    await userEvent.click(button);
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog', { name: 'Live activity' });
    await expect(within(dialog).getByRole('listitem')).toHaveTextContent('New subscription');
    await expect(within(dialog).getByRole('listitem')).toHaveTextContent('$47.00');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(button).toHaveFocus());
    await expect(button).toHaveAccessibleName('Live activity');
    await expect(stream.connections).toBe(1);
  },
};

/** The server refuses the stream (503): the header says Offline, in words; nothing else breaks. */
export const StreamRefused: Story = {
  parameters: {
    msw: {
      handlers: [
        recordCalls,
        whoamiHandlers.signedIn(),
        statsHandlers.ok(),
        liveStreamHandlers.refused(503),
      ],
    },
  },
  play: async ({ canvas }) => {
    await canvas.findByRole('region', { name: 'MRR' }, LAZY);
    const status = await canvas.findByRole('status', { name: 'Live updates: Offline' }, LAZY);
    await expect(status).toHaveTextContent('Offline');
    // Stream errors are only logged (§8): no alert on screen.
    await expect(canvas.queryByRole('alert')).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Live activity' })).toBeVisible();
  },
};
