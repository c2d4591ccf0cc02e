import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef, useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { PRODUCT_TITLE } from '../../src/components/AppLayout';
import {
  MobileNavDialog,
  type MobileNavDialogProps,
} from '../../src/components/AppLayout/MobileNavDialog';
import { PHONE_WIDTH, withLayoutRouter } from '../support/appLayout';

type HarnessProps = Pick<MobileNavDialogProps, 'isOpen' | 'onOpenChange' | 'title'>;

/**
 * Plays the layout's part: the menu button that gets focus back, and the open state (seeded from
 * args, reported to the spy).
 */
function Harness({ isOpen: initiallyOpen, onOpenChange, title }: HarnessProps) {
  const [isOpen, setOpen] = useState(initiallyOpen);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  return (
    <div>
      <button
        ref={menuButtonRef}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        onClick={() => setOpen(true)}
      >
        Open menu
      </button>
      <MobileNavDialog
        id="drawer"
        title={title}
        isOpen={isOpen}
        onOpenChange={(next) => {
          onOpenChange(next);
          setOpen(next);
        }}
        returnFocusRef={menuButtonRef}
      >
        <nav aria-label="Main">
          <ul>
            <li>
              <a href="#dashboard">Dashboard</a>
            </li>
            <li>
              <a href="#users">Users</a>
            </li>
          </ul>
        </nav>
      </MobileNavDialog>
    </div>
  );
}

/**
 * The mobile overlay menu's dialog (§2 Layout), which Layout/AppLayout loads on demand: a modal
 * drawer with a backdrop, titled with the product, that gives focus back to the menu button.
 */
const meta = {
  title: 'Layout/MobileNavDialog',
  component: Harness,
  parameters: { layout: 'fullscreen', frameWidth: PHONE_WIDTH },
  decorators: [withLayoutRouter],
  args: { isOpen: true, onOpenChange: fn(), title: PRODUCT_TITLE },
} satisfies Meta<typeof Harness>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Open: focus on 'Close menu', the page behind hidden; Escape closes and focus returns. */
export const Open: Story = {
  play: async ({ canvas, args }) => {
    const dialog = await canvas.findByRole('dialog', { name: PRODUCT_TITLE });
    await expect(dialog).toHaveAttribute('id', 'drawer');
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Close menu' })).toHaveFocus(),
    );
    await expect(within(dialog).getByRole('navigation', { name: 'Main' })).toBeVisible();
    // Modal: the menu button behind is hidden from assistive technology meanwhile.
    await expect(canvas.queryByRole('button', { name: 'Open menu' })).toBeNull();
    await userEvent.keyboard('{Escape}');
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull());
    const menuButton = canvas.getByRole('button', { name: 'Open menu' });
    await waitFor(() => expect(menuButton).toHaveFocus());
    // Reopened, and left open for the screenshot.
    await userEvent.click(menuButton);
    await canvas.findByRole('dialog', { name: PRODUCT_TITLE });
  },
};

/** Closed: nothing shows; opened, its backdrop closes it again, focus back on the menu button. */
export const Closed: Story = {
  args: { isOpen: false },
  play: async ({ canvas, args }) => {
    await expect(canvas.queryByRole('dialog')).toBeNull();
    await expect(canvas.queryByTestId('mobile-nav-backdrop')).toBeNull();
    const menuButton = canvas.getByRole('button', { name: 'Open menu' });
    await userEvent.click(menuButton);
    await canvas.findByRole('dialog', { name: PRODUCT_TITLE });
    await userEvent.click(canvas.getByTestId('mobile-nav-backdrop'));
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(menuButton).toHaveFocus());
  },
};

/** A long title wraps inside the drawer's header, and the close button stays in reach. */
export const LongTitle: Story = {
  args: { title: 'MG Admin Console for the subscription business and its affiliates' },
  play: async ({ canvas }) => {
    const dialog = await canvas.findByRole('dialog', {
      name: 'MG Admin Console for the subscription business and its affiliates',
    });
    const close = within(dialog).getByRole('button', { name: 'Close menu' });
    await expect(close).toBeVisible();
    const [box, button] = [dialog.getBoundingClientRect(), close.getBoundingClientRect()];
    await expect(box.width).toBeLessThanOrEqual(PHONE_WIDTH);
    await expect(button.right).toBeLessThanOrEqual(box.right);
    await expect(button.left).toBeGreaterThanOrEqual(box.left);
    // It keeps its square size beside the wrapped title.
    await expect(button.width).toBeCloseTo(button.height, 0);
    await expect(button.width).toBeGreaterThanOrEqual(24);
  },
};
