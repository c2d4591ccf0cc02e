import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { StreamStatus } from '../../src/components/StreamStatus';
import type { StreamState } from '../../src/domain/live';

/**
 * The header's live-stream indicator, in each state. The state is told by text (and an accessible
 * name 'Live updates: <state>') and by the icon's shape, never by colour alone.
 */
const meta = {
  title: 'Layout/StreamStatus',
  component: StreamStatus,
  parameters: { layout: 'fullscreen' },
  decorators: [
    (Story) => (
      <div style={{ padding: 'var(--space-5)' }}>
        <Story />
      </div>
    ),
  ],
  args: { state: 'connected' },
} satisfies Meta<typeof StreamStatus>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Asserts the indicator shows `text`, is named 'Live updates: <text>' and marks `state`. */
async function expectStatus(canvasElement: HTMLElement, state: StreamState, text: string) {
  const status = canvasElement.querySelector('[role="status"]') as HTMLElement;
  await expect(status).toHaveAccessibleName(`Live updates: ${text}`);
  await expect(status).toHaveTextContent(text);
  await expect(status).toHaveAttribute('data-state', state);
  await expect(status.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
  return status;
}

/** The stream is open: events arrive within a second. */
export const Connected: Story = {
  play: async ({ canvasElement, canvas }) => {
    await expectStatus(canvasElement, 'connected', 'Connected');
    await expect(canvas.getByRole('status', { name: 'Live updates: Connected' })).toBeVisible();
    await expect(canvas.getByText('Connected')).toBeVisible();
  },
};

/** The page's first connection is being opened. */
export const Connecting: Story = {
  args: { state: 'connecting' },
  play: async ({ canvasElement, canvas }) => {
    await expectStatus(canvasElement, 'connecting', 'Connecting…');
    await expect(canvas.getByText('Connecting…')).toBeVisible();
  },
};

/** The connection dropped; EventSource is re-establishing it (and will replay what was missed). */
export const Reconnecting: Story = {
  args: { state: 'reconnecting' },
  play: async ({ canvasElement, canvas }) => {
    await expectStatus(canvasElement, 'reconnecting', 'Reconnecting…');
    await expect(canvas.getByText('Reconnecting…')).toBeVisible();
  },
};

/** Offline: the browser is offline, the server refused the stream, or it kept failing. */
export const Offline: Story = {
  args: { state: 'offline' },
  play: async ({ canvasElement, canvas }) => {
    const status = await expectStatus(canvasElement, 'offline', 'Offline');
    await expect(canvas.getByText('Offline')).toBeVisible();
    // A different shape from Connected (a crossed ring), not only a different colour.
    await expect(status.querySelectorAll('svg path')).toHaveLength(1);
    await expect(status.querySelectorAll('svg circle')).toHaveLength(1);
  },
};

/** Compact header (mobile): the text is hidden visually, the name stays and is the tooltip. */
export const LabelHidden: Story = {
  args: { state: 'reconnecting', isLabelHidden: true },
  play: async ({ canvasElement, canvas }) => {
    const status = await expectStatus(canvasElement, 'reconnecting', 'Reconnecting…');
    await expect(status).toHaveAttribute('title', 'Live updates: Reconnecting…');
    await expect(canvas.getByText('Reconnecting…')).toHaveClass('visually-hidden');
  },
};

/** Every state side by side, as they look in the header. */
export const AllStates: Story = {
  render: () => (
    <div style={{ display: 'flex', gap: 'var(--space-4)' }}>
      {(['connecting', 'connected', 'reconnecting', 'offline'] as const).map((state) => (
        <StreamStatus key={state} state={state} />
      ))}
    </div>
  ),
  play: async ({ canvas }) => {
    const names = canvas.getAllByRole('status').map((s) => s.getAttribute('aria-label'));
    await expect(names).toEqual([
      'Live updates: Connecting…',
      'Live updates: Connected',
      'Live updates: Reconnecting…',
      'Live updates: Offline',
    ]);
    // Four different icons.
    const icons = canvas.getAllByRole('status').map((s) => s.querySelector('svg')?.innerHTML);
    await expect(new Set(icons).size).toBe(4);
  },
};
