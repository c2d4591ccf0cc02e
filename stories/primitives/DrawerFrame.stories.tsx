import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { Button } from '../../src/components/Button';
import { DrawerFrame } from '../../src/components/DrawerFrame';

/** The open drawer (it lives in a portal, so plays look in document.body). */
async function findDrawer(name: string | RegExp = 'Subscription 4812') {
  return within(document.body).findByRole('dialog', { name });
}

/**
 * The right-side modal drawer the detail views share: title, optional subtitle with 'Times in
 * UTC', Close, and a scrolling body; Escape, Close and the backdrop close it, focus returns.
 */
const meta = {
  title: 'Primitives/DrawerFrame',
  component: DrawerFrame,
  parameters: { layout: 'fullscreen' },
  args: {
    isOpen: true,
    onOpenChange: fn(),
    title: 'Subscription 4812',
    subtitle: 'ada@example.com',
    busy: false,
    children: <p>The subscription's facts go here.</p>,
  },
} satisfies Meta<typeof DrawerFrame>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Open: the title names the dialog, the subtitle and the UTC note describe it, Close asks to close. */
export const Open: Story = {
  play: async ({ args }) => {
    const drawer = await findDrawer();
    // Radix links the description once it has mounted.
    await waitFor(() =>
      expect(drawer).toHaveAccessibleDescription(/^ada@example\.com ?Times in UTC$/),
    );
    await expect(within(drawer).getByText("The subscription's facts go here.")).toBeVisible();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    await expect(args.onOpenChange).toHaveBeenCalledWith(false);
  },
};

/** No subtitle (null): no description line at all. */
export const WithoutSubtitle: Story = {
  args: { subtitle: null },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(drawer).queryByText('Times in UTC')).toBeNull();
    await expect(drawer).not.toHaveAttribute('aria-describedby');
  },
};

/** An empty subtitle: only 'Times in UTC'. */
export const UtcNoteOnly: Story = {
  args: { subtitle: '' },
  play: async () => {
    const drawer = await findDrawer();
    await waitFor(() => expect(drawer).toHaveAccessibleDescription('Times in UTC'));
  },
};

/** Loading its content: the body is marked busy. */
export const Busy: Story = {
  args: { busy: true, children: <p role="status">Loading…</p> },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(drawer).getByRole('status').parentElement).toHaveAttribute(
      'aria-busy',
      'true',
    );
  },
};

/** A long title and subtitle wrap in the header; a long body scrolls under the sticky header. */
export const LongText: Story = {
  args: {
    title: 'Webhook delivery lemonsqueezy subscription_payment_recovered 0a9f3c2e-7b41-4d2f',
    subtitle: 'maximiliane.fitzgerald-montgomery@customer-success.example.com',
    children: (
      <div>
        {Array.from({ length: 40 }, (_, i) => (
          <p key={i}>Line {i + 1} of a long body that scrolls inside the drawer.</p>
        ))}
      </div>
    ),
  },
  play: async () => {
    const drawer = await findDrawer(/Webhook delivery lemonsqueezy/);
    await expect(drawer.scrollWidth).toBeLessThanOrEqual(drawer.clientWidth);
    await expect(within(drawer).getByText(/Line 40 of a long body/)).toBeInTheDocument();
  },
};

/** Keyboard: opened from a button, focus moves inside; Escape closes and focus returns to it. */
export const KeyboardFocusReturn: Story = {
  args: { isOpen: false },
  render: function Render(args) {
    const [isOpen, setOpen] = useState(false);
    return (
      <div style={{ padding: 16 }}>
        <Button onClick={() => setOpen(true)}>Open details</Button>
        <DrawerFrame
          {...args}
          isOpen={isOpen}
          onOpenChange={(open) => {
            args.onOpenChange(open);
            setOpen(open);
          }}
        >
          <Button>Replay</Button>
        </DrawerFrame>
      </div>
    );
  },
  play: async ({ canvas, args }) => {
    const trigger = canvas.getByRole('button', { name: 'Open details' });
    await userEvent.tab();
    await expect(trigger).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    const drawer = await findDrawer();
    await expect(drawer.contains(document.activeElement)).toBe(true);
    await userEvent.tab();
    await userEvent.tab();
    await expect(drawer.contains(document.activeElement)).toBe(true);
    await userEvent.keyboard('{Escape}');
    await expect(args.onOpenChange).toHaveBeenCalledWith(false);
    await expect(within(document.body).queryByRole('dialog')).toBeNull();
    await expect(trigger).toHaveFocus();
    trigger.blur();
  },
};
