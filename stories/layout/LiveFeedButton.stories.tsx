import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { LiveFeedButton, type LiveFeedButtonProps } from '../../src/components/LiveFeed';
import { FIXTURE_NOW } from '../../tests/msw/fixtures';
import { LIVE_MESSAGES_EACH_TYPE, LIVE_MESSAGES_MANY } from '../../tests/msw/fixtures-live';
import { liveEvents } from '../support/liveEvents';

/** Plays the screen's part: holds the open state (seeded from args) and reports it to the spy. */
function Harness(args: LiveFeedButtonProps) {
  const [isOpen, setOpen] = useState(args.isOpen);
  const [unreadCount, setUnread] = useState(args.unreadCount);
  return (
    <LiveFeedButton
      {...args}
      isOpen={isOpen}
      unreadCount={unreadCount}
      onOpenChange={(next) => {
        args.onOpenChange(next);
        setOpen(next);
        if (next) setUnread(0);
      }}
    />
  );
}

/**
 * The header's 'Live activity' button and its popover: an unread count, the feed in a dialog, and
 * focus back on the button when it closes.
 */
const meta = {
  title: 'Layout/LiveFeedButton',
  component: LiveFeedButton,
  parameters: { layout: 'fullscreen' },
  decorators: [
    (Story) => (
      <div style={{ display: 'flex', justifyContent: 'flex-end', padding: 'var(--space-5)' }}>
        <Story />
      </div>
    ),
  ],
  render: (args) => <Harness {...args} />,
  args: {
    events: liveEvents(LIVE_MESSAGES_EACH_TYPE),
    unreadCount: 0,
    isOpen: false,
    now: new Date(FIXTURE_NOW),
    onOpenChange: fn(),
  },
} satisfies Meta<typeof LiveFeedButton>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Nothing unread: the button alone; it opens the feed and Escape returns focus to it. */
export const Closed: Story = {
  play: async ({ canvas, canvasElement, args }) => {
    const button = canvas.getByRole('button', { name: 'Live activity' });
    await expect(button).toHaveAttribute('title', 'Live activity');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(button);
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(true);
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog', { name: 'Live activity' });
    await expect(within(dialog).getAllByRole('listitem')).toHaveLength(6);
    await userEvent.keyboard('{Escape}');
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(button).toHaveFocus());
  },
};

/**
 * The button toggles the feed (it names the dialog it controls while open); a click elsewhere
 * closes it and leaves focus where the click put it.
 */
export const ToggleAndClickOutside: Story = {
  decorators: [
    (Story) => (
      <>
        <Story />
        <button type="button">Elsewhere</button>
      </>
    ),
  ],
  play: async ({ canvas, canvasElement, args }) => {
    const body = within(canvasElement.ownerDocument.body);
    const button = canvas.getByRole('button', { name: 'Live activity' });
    await expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    await expect(button).not.toHaveAttribute('aria-controls');
    await userEvent.click(button);
    const dialog = await body.findByRole('dialog', { name: 'Live activity' });
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(button).toHaveAttribute('aria-controls', dialog.id);
    // The button again: closed, and not reopened by the click that closed it (the focus return
    // on Escape and Close is the Closed and Open stories').
    await userEvent.click(button);
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    // Reopened, then a click on another control: closed, and focus stays on that control.
    await userEvent.click(button);
    await body.findByRole('dialog', { name: 'Live activity' });
    const elsewhere = canvas.getByRole('button', { name: 'Elsewhere' });
    await userEvent.click(elsewhere);
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(elsewhere).toHaveFocus();
    await expect(args.onOpenChange).toHaveBeenCalledTimes(4);
  },
};

/** Three events arrived since the feed was last open: the count shows and is in the name. */
export const Unread: Story = {
  args: { unreadCount: 3 },
  play: async ({ canvas }) => {
    const button = canvas.getByRole('button', { name: 'Live activity, 3 unread' });
    await expect(button).toHaveTextContent('3');
    await expect(button).toHaveAttribute('data-unread');
  },
};

/** Open from the keyboard: the feed in a dialog; its Close button closes it and focus returns. */
export const Open: Story = {
  args: { unreadCount: 2 },
  play: async ({ canvas, canvasElement, args }) => {
    const button = canvas.getByRole('button', { name: 'Live activity, 2 unread' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    const body = within(canvasElement.ownerDocument.body);
    let dialog = await body.findByRole('dialog', { name: 'Live activity' });
    await expect(within(dialog).getByRole('heading', { name: 'Live activity' })).toBeVisible();
    // Opening marks everything read.
    await expect(button).toHaveAccessibleName('Live activity');
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(button).toHaveFocus());
    // Reopened and left open for the screenshot.
    await userEvent.click(button);
    dialog = await body.findByRole('dialog', { name: 'Live activity' });
    await expect(within(dialog).getByRole('list', { name: 'Latest live events' })).toBeVisible();
    await expect(args.onOpenChange).toHaveBeenCalledTimes(3);
  },
};

/** Open with nothing yet: the empty state. */
export const OpenEmpty: Story = {
  args: { events: [], isOpen: true },
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog', { name: 'Live activity' });
    await expect(within(dialog).getByText('No live events yet')).toBeVisible();
  },
};

/** Open with fifty events: the panel keeps its height and its list scrolls (keyboard too). */
export const OpenMany: Story = {
  args: { events: liveEvents(LIVE_MESSAGES_MANY), isOpen: true, unreadCount: 0 },
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog', { name: 'Live activity' });
    await expect(within(dialog).getAllByRole('listitem')).toHaveLength(50);
    const scroller = within(dialog).getByRole('region', { name: 'Live activity' });
    await expect(scroller).toHaveAttribute('tabindex', '0');
    await expect(scroller.scrollHeight).toBeGreaterThan(scroller.clientHeight);
    await expect(dialog.getBoundingClientRect().height).toBeLessThanOrEqual(480);
  },
};

/**
 * With the stream's state: the button also carries the state's icon, which a narrow header shows
 * in place of the pulse (Layout/AppLayout LiveMobile); on its own the pulse shows.
 */
export const WithStreamState: Story = {
  args: { unreadCount: 12, streamState: 'offline' },
  play: async ({ canvas }) => {
    const button = canvas.getByRole('button', { name: 'Live activity, 12 unread' });
    await expect(button).toHaveAttribute('title', 'Live activity, 12 unread');
    await expect(button).toHaveAttribute('data-stream-state', 'offline');
    const stateIcon = button.querySelector('[data-part="stream-icon"]');
    await expect(stateIcon).toHaveAttribute('data-state', 'offline');
    await expect(stateIcon).not.toBeVisible();
    await expect(button.querySelector('[data-part="feed-icon"]')).toBeVisible();
  },
};
