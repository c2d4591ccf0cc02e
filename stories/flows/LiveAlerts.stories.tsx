import type { Meta, StoryObj } from '@storybook/react-vite';
import { sse } from 'msw';
import { expect, userEvent, waitFor } from 'storybook/test';
import { SOUND_STORAGE_KEY, TOKEN_STORAGE_KEY } from '../../src/domain/types';
import { api, statsHandlers, whoamiHandlers } from '../../tests/msw/handlers';
import { FlowApp } from './FlowApp';
import { LAZY, plays, recordCalls, seen, stubAudio } from './handlers';

/** Live messages the mocked stream sends, in order, once the console connects. */
const MESSAGES = [
  'not json at all',
  JSON.stringify({ type: 'isr.event', amount_cents: 4700 }),
  JSON.stringify({ type: 'subscription.new', email: 'ada@example.com' }),
  JSON.stringify({ no: 'type' }),
  JSON.stringify({ type: 'subscription.renewal', email: 'bob@example.com' }),
  JSON.stringify({ type: 'subscription.cancelled', email: 'cy@example.com' }),
];

/** How many times the console opened the stream in this story. */
let connections = 0;

/** The stream: counts connections and sends MESSAGES to each. */
const liveStream = sse(api('/events/stream'), ({ client }) => {
  connections += 1;
  for (const data of MESSAGES) client.send({ data });
});

/**
 * Sound alerts on live events with the app's real routes (§4 Sound alerts, §8): the signed-in
 * shell opens the event stream; subscription.new and subscription.renewal play their sounds when
 * sound is on; other types and bad payloads play nothing and show nothing.
 */
const meta = {
  title: 'Flows/LiveAlerts',
  component: FlowApp,
  args: { initialEntry: '/' },
  parameters: {
    layout: 'fullscreen',
    msw: { handlers: [recordCalls, whoamiHandlers.signedIn(), statsHandlers.ok(), liveStream] },
  },
  beforeEach() {
    seen.length = 0;
    connections = 0;
    localStorage.setItem(TOKEN_STORAGE_KEY, 'flow-token');
    return stubAudio();
  },
} satisfies Meta<typeof FlowApp>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Sound on from an earlier visit: the new-subscription sound, then the renewal sound, audibly. */
export const SoundOn: Story = {
  beforeEach() {
    localStorage.setItem(SOUND_STORAGE_KEY, '1');
  },
  play: async ({ canvas }) => {
    await canvas.findByRole('region', { name: 'MRR' }, LAZY);
    await waitFor(() =>
      expect(plays).toEqual([
        { sound: 'sounds/new-sub.mp3', muted: false },
        { sound: 'sounds/renew.mp3', muted: false },
      ]),
    );
    await expect(connections).toBe(1);
    // Bad payloads are only logged (§8): nothing on screen.
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** Sound off (the default): the same messages play nothing. */
export const SoundOff: Story = {
  play: async ({ canvas }) => {
    await canvas.findByRole('region', { name: 'MRR' }, LAZY);
    await waitFor(() => expect(connections).toBe(1));
    // Give the stream's messages time to arrive; none may play.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(plays).toEqual([]);
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** Switching sound on while connected primes both sounds (muted) without reconnecting. */
export const TurnedOnWhileConnected: Story = {
  parameters: {
    msw: {
      handlers: [
        recordCalls,
        whoamiHandlers.signedIn(),
        statsHandlers.ok(),
        sse(api('/events/stream'), () => void (connections += 1)),
      ],
    },
  },
  play: async ({ canvas }) => {
    await canvas.findByRole('region', { name: 'MRR' }, LAZY);
    await waitFor(() => expect(connections).toBe(1));
    await userEvent.click(canvas.getByRole('switch', { name: 'Sound alerts' }));
    await waitFor(() =>
      expect(plays).toEqual([
        { sound: 'sounds/new-sub.mp3', muted: true },
        { sound: 'sounds/renew.mp3', muted: true },
      ]),
    );
    await expect(connections).toBe(1);
  },
};
