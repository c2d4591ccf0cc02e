import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef, useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import {
  LiveFeedPopover,
  type LiveFeedPopoverProps,
} from '../../src/components/LiveFeed/LiveFeedPopover';
import { FIXTURE_NOW } from '../../tests/msw/fixtures';
import { LIVE_MESSAGES_EACH_TYPE, LIVE_MESSAGES_MANY } from '../../tests/msw/fixtures-live';
import { liveEvents } from '../support/liveEvents';

type HarnessProps = Pick<LiveFeedPopoverProps, 'events' | 'isOpen' | 'onOpenChange' | 'now'>;

/**
 * Plays LiveFeedButton's part: the button the panel is placed against (and gives focus back to),
 * another control to click, and the open state (seeded from args, reported to the spy).
 */
function Harness({ isOpen: initiallyOpen, onOpenChange, ...props }: HarnessProps) {
  const [isOpen, setOpen] = useState(initiallyOpen);
  const anchorRef = useRef<HTMLButtonElement>(null);
  return (
    <div style={{ display: 'flex', justifyContent: 'space-between', padding: 'var(--space-5)' }}>
      <button type="button">Elsewhere</button>
      <button ref={anchorRef} type="button" onClick={() => setOpen(!isOpen)}>
        Live activity
      </button>
      <LiveFeedPopover
        {...props}
        id="live-panel"
        anchorRef={anchorRef}
        isOpen={isOpen}
        onOpenChange={(next) => {
          onOpenChange(next);
          setOpen(next);
        }}
      />
    </div>
  );
}

/**
 * The live activity feed's popover, which Layout/LiveFeedButton loads on demand: a dialog 'Live
 * activity' below its button with the feed, closed by Escape, Close or a click elsewhere.
 */
const meta = {
  title: 'Layout/LiveFeedPopover',
  component: Harness,
  parameters: { layout: 'fullscreen' },
  args: {
    events: liveEvents(LIVE_MESSAGES_EACH_TYPE),
    isOpen: true,
    onOpenChange: fn(),
    now: new Date(FIXTURE_NOW),
  },
} satisfies Meta<typeof Harness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Open with one event of each type; 'Close' closes it and focus returns to the button. */
export const Open: Story = {
  play: async ({ canvas, canvasElement, args }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog', { name: 'Live activity' });
    await expect(dialog).toHaveAttribute('id', 'live-panel');
    await expect(within(dialog).getAllByRole('listitem')).toHaveLength(6);
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    // Placed below the button, its right edge at the button's.
    const anchor = canvas.getByRole('button', { name: 'Live activity' });
    await expect(dialog.getBoundingClientRect().top).toBeGreaterThanOrEqual(
      anchor.getBoundingClientRect().bottom,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(anchor).toHaveFocus());
  },
};

/** Open with nothing yet: the empty state, and no scroll region. */
export const Empty: Story = {
  args: { events: [] },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
      name: 'Live activity',
    });
    await expect(within(dialog).getByText('No live events yet')).toBeVisible();
    await expect(within(dialog).queryByRole('region')).toBeNull();
  },
};

/** Fifty events: the panel keeps its height and its list scrolls, from the keyboard too. */
export const Many: Story = {
  args: { events: liveEvents(LIVE_MESSAGES_MANY) },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
      name: 'Live activity',
    });
    const scroller = within(dialog).getByRole('region', { name: 'Live activity' });
    await expect(scroller).toHaveAttribute('tabindex', '0');
    await expect(scroller.scrollHeight).toBeGreaterThan(scroller.clientHeight);
    await expect(dialog.getBoundingClientRect().height).toBeLessThanOrEqual(480);
  },
};

/** A click on another control closes it and leaves focus on that control. */
export const ClickElsewhere: Story = {
  play: async ({ canvas, canvasElement, args }) => {
    const body = within(canvasElement.ownerDocument.body);
    await body.findByRole('dialog', { name: 'Live activity' });
    const elsewhere = canvas.getByRole('button', { name: 'Elsewhere' });
    await userEvent.click(elsewhere);
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(elsewhere).toHaveFocus();
  },
};

/** Closed: nothing shows until the button opens it. */
export const Closed: Story = {
  args: { isOpen: false },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await expect(body.queryByRole('dialog')).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Live activity' }));
    await expect(await body.findByRole('dialog', { name: 'Live activity' })).toBeVisible();
  },
};
