import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { AppLayout } from '../../src/components/AppLayout';
import {
  appLayoutArgs,
  expectMainNav,
  LayoutHarness,
  PHONE_WIDTH,
  withLayoutRouter,
} from '../support/appLayout';

/**
 * Moving between pages inside the shell view (§2 Layout): the sidebar on a desktop and the overlay
 * menu on a phone mark the entry of the page on screen as current. The shell runs in a memory
 * router with stand-in pages; the app's own routes are exercised in Flows/Navigation.
 */
const meta = {
  title: 'Flows/AppLayoutNavigation',
  component: AppLayout,
  parameters: { layout: 'fullscreen', route: '/' },
  decorators: [withLayoutRouter],
  render: (args) => <LayoutHarness {...args} />,
  args: appLayoutArgs(),
} satisfies Meta<typeof AppLayout>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Desktop: choosing Users, then Dashboard, in the sidebar marks each in turn as the current page. */
export const DesktopSidebar: Story = {
  play: async ({ canvasElement, canvas, args }) => {
    await expectMainNav(canvasElement, 'Dashboard');
    await userEvent.click(canvas.getByRole('link', { name: 'Users' }));
    await expectMainNav(canvasElement, 'Users');
    await expect(
      within(canvas.getByRole('main')).getByRole('heading', { level: 1, name: 'Users' }),
    ).toBeVisible();
    await userEvent.click(canvas.getByRole('link', { name: 'Dashboard' }));
    await expectMainNav(canvasElement, 'Dashboard');
    await expect(
      within(canvas.getByRole('main')).getByRole('heading', { level: 1, name: 'Dashboard' }),
    ).toBeVisible();
    await expect(args.onMobileNavOpenChange).not.toHaveBeenCalled();
    await expect(args.onSidebarCollapsedChange).not.toHaveBeenCalled();
  },
};

/**
 * Phone: choosing Logs in the overlay menu closes it, shows the Logs page and gives focus back to
 * the menu button; reopened, the menu marks Logs current (and stays open for the screenshot).
 */
export const MobileMenu: Story = {
  args: { viewport: 'mobile', isMobileNavOpen: true },
  parameters: { route: '/subscriptions', frameWidth: PHONE_WIDTH },
  play: async ({ canvas, args }) => {
    const spy = args.onMobileNavOpenChange;
    const menuButton = canvas.getByRole('button', { name: 'Open menu', hidden: true });
    let dialog = await canvas.findByRole('dialog', { name: 'MG Admin Console' });
    await expectMainNav(dialog, 'Subscriptions');

    await userEvent.click(within(dialog).getByRole('link', { name: 'Logs' }));
    await expect(spy).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull());
    await expect(
      within(canvas.getByRole('main')).getByRole('heading', { level: 1, name: 'Logs' }),
    ).toBeVisible();
    await waitFor(() => expect(menuButton).toHaveFocus());

    await userEvent.click(menuButton);
    await expect(spy).toHaveBeenLastCalledWith(true);
    dialog = await canvas.findByRole('dialog');
    await expectMainNav(dialog, 'Logs');
    await expect(spy).toHaveBeenCalledTimes(2);
  },
};
