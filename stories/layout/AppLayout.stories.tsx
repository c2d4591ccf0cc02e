import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { AppLayout } from '../../src/components/AppLayout';
import {
  appLayoutArgs,
  expectExternalLinks,
  expectHeaderFits,
  expectMainNav,
  LayoutHarness,
  LiveHeaderItems,
  NARROW_DESKTOP_WIDTH,
  PHONE_WIDTH,
  withLayoutRouter,
} from '../support/appLayout';

/**
 * The signed-in shell (§2 Layout): header, sidebar and the mobile overlay menu, in each of its
 * states. Journeys that move between pages are in Flows/AppLayoutNavigation.
 */
const meta = {
  title: 'Layout/AppLayout',
  component: AppLayout,
  parameters: { layout: 'fullscreen', route: '/' },
  decorators: [withLayoutRouter],
  render: (args) => <LayoutHarness {...args} />,
  args: appLayoutArgs(),
} satisfies Meta<typeof AppLayout>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Desktop, sidebar expanded, on the dashboard. */
export const Expanded: Story = {
  play: async ({ canvasElement, canvas, args }) => {
    // The skip link is the first stop and targets the main landmark.
    await userEvent.tab();
    const skip = canvas.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toHaveFocus();
    const main = canvas.getByRole('main');
    await expect(skip).toHaveAttribute('href', `#${main.id}`);

    const header = canvas.getByRole('banner');
    await expect(header).toHaveTextContent('MG Admin Console');
    await expect(header).toHaveTextContent('v0.0.1');
    await expect(within(header).getByText('Admin')).toBeVisible();
    await expectExternalLinks(header);
    await expectHeaderFits(header, 'Admin');
    await expectMainNav(canvasElement, 'Dashboard');
    await expect(within(main).getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    const collapse = canvas.getByRole('button', { name: 'Collapse' });
    await expect(collapse).toHaveAttribute('aria-expanded', 'true');
    const controlled = canvasElement.ownerDocument.getElementById(
      collapse.getAttribute('aria-controls') ?? '',
    );
    await expect(controlled).toContainElement(canvas.getByRole('navigation', { name: 'Main' }));

    await userEvent.click(collapse);
    await expect(args.onSidebarCollapsedChange).toHaveBeenLastCalledWith(true);
    const expand = canvas.getByRole('button', { name: 'Expand' });
    await expect(expand).toHaveAttribute('aria-expanded', 'false');
    await expectMainNav(canvasElement, 'Dashboard');
    await userEvent.click(expand);
    await expect(args.onSidebarCollapsedChange).toHaveBeenLastCalledWith(false);
    await expect(args.onSidebarCollapsedChange).toHaveBeenCalledTimes(2);

    await userEvent.click(canvas.getByRole('button', { name: 'Log out' }));
    await expect(args.onLogout).toHaveBeenCalledOnce();
    await expect(args.onMobileNavOpenChange).not.toHaveBeenCalled();
  },
};

/** Desktop, sidebar collapsed to icons; names stay for assistive technology and as tooltips. */
export const Collapsed: Story = {
  args: { ...Expanded.args, isSidebarCollapsed: true },
  parameters: { route: '/users' },
  play: async ({ canvasElement, canvas, args }) => {
    await expectMainNav(canvasElement, 'Users');
    const nav = canvas.getByRole('navigation', { name: 'Main' });
    for (const link of within(nav).getAllByRole('link')) {
      await expect(link).toHaveAttribute('title', link.textContent ?? '');
      await expect(within(link).getByText(link.textContent ?? '')).toHaveClass('visually-hidden');
    }
    const expand = canvas.getByRole('button', { name: 'Expand' });
    await expect(expand).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(expand);
    await expect(args.onSidebarCollapsedChange).toHaveBeenLastCalledWith(false);
    await expect(within(nav).getByText('Users')).not.toHaveClass('visually-hidden');
    await userEvent.click(canvas.getByRole('button', { name: 'Collapse' }));
    await expect(args.onSidebarCollapsedChange).toHaveBeenLastCalledWith(true);
    await expect(canvas.getByRole('button', { name: 'Expand' })).toBeVisible();
  },
};

/** Mobile with the menu closed: the header keeps the essentials; the menu button opens the overlay. */
export const MobileClosed: Story = {
  args: { ...Expanded.args, viewport: 'mobile' },
  parameters: { route: '/metrics', frameWidth: PHONE_WIDTH },
  play: async ({ canvasElement, canvas, args }) => {
    await expect(canvas.queryByRole('navigation', { name: 'Main' })).toBeNull();
    await expect(canvas.queryByRole('button', { name: 'Collapse' })).toBeNull();
    const header = canvas.getByRole('banner');
    await expect(header).toHaveTextContent('MG Admin Console');
    await expect(header).toHaveTextContent('v0.0.1');
    await expect(within(header).getByRole('switch', { name: 'Sound alerts' })).toBeVisible();
    await expect(within(header).queryAllByRole('link')).toHaveLength(0);
    await expectHeaderFits(header, 'Admin');
    await userEvent.click(within(header).getByRole('button', { name: 'Log out' }));
    await expect(args.onLogout).toHaveBeenCalledOnce();

    const menuButton = canvas.getByRole('button', { name: 'Open menu' });
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await expect(menuButton).toHaveAttribute('aria-haspopup', 'dialog');
    await userEvent.click(menuButton);
    await expect(args.onMobileNavOpenChange).toHaveBeenLastCalledWith(true);
    const dialog = await canvas.findByRole('dialog', { name: 'MG Admin Console' });
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    await expect(menuButton).toHaveAttribute('aria-controls', dialog.id);
    await waitFor(() =>
      expect(dialog).toContainElement(canvasElement.ownerDocument.activeElement as HTMLElement),
    );
    await expectMainNav(dialog, 'Metrics');

    await userEvent.keyboard('{Escape}');
    await expect(args.onMobileNavOpenChange).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(menuButton).toHaveFocus());
    await expect(args.onSidebarCollapsedChange).not.toHaveBeenCalled();
  },
};

/** Mobile with the overlay open; it closes by its button and by the backdrop. */
export const MobileOpen: Story = {
  args: { ...Expanded.args, viewport: 'mobile', isMobileNavOpen: true },
  parameters: { route: '/subscriptions', frameWidth: PHONE_WIDTH },
  play: async ({ canvas, args }) => {
    const spy = args.onMobileNavOpenChange;
    // While the modal overlay is open, the rest of the page is hidden from assistive technology.
    const menuButton = canvas.getByRole('button', { name: 'Open menu', hidden: true });
    await expect(canvas.queryByRole('button', { name: 'Open menu' })).toBeNull();
    let dialog = await canvas.findByRole('dialog', { name: 'MG Admin Console' });
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Close menu' })).toHaveFocus(),
    );
    await expectMainNav(dialog, 'Subscriptions');
    await expectExternalLinks(dialog);

    // Close button, focus back on the menu button.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close menu' }));
    await expect(spy).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(menuButton).toHaveFocus());

    // Backdrop.
    await userEvent.click(menuButton);
    await expect(spy).toHaveBeenLastCalledWith(true);
    await canvas.findByRole('dialog');
    await userEvent.click(canvas.getByTestId('mobile-nav-backdrop'));
    await expect(spy).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull());

    // Reopened (and left open for the screenshot), it still marks the current route.
    await userEvent.click(menuButton);
    dialog = await canvas.findByRole('dialog');
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Close menu' })).toHaveFocus(),
    );
    await expectMainNav(dialog, 'Subscriptions');
    await expect(spy).toHaveBeenCalledTimes(4);
  },
};

/** The header's sound switch, on. */
export const SoundOn: Story = {
  args: { ...Expanded.args, isSoundEnabled: true },
  play: async ({ canvas, args }) => {
    const toggle = within(canvas.getByRole('banner')).getByRole('switch', { name: 'Sound alerts' });
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(toggle);
    await expect(args.onSoundToggle).toHaveBeenLastCalledWith(false);
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(toggle);
    await expect(args.onSoundToggle).toHaveBeenLastCalledWith(true);
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
  },
};

/** The header's sound switch, off. */
export const SoundOff: Story = {
  args: { ...Expanded.args, isSoundEnabled: false },
  play: async ({ canvas, args }) => {
    const toggle = within(canvas.getByRole('banner')).getByRole('switch', { name: 'Sound alerts' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(toggle);
    await expect(args.onSoundToggle).toHaveBeenLastCalledWith(true);
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(toggle);
    await expect(args.onSoundToggle).toHaveBeenLastCalledWith(false);
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
  },
};

/** A long operator name is truncated with a tooltip and never pushes the header out of the viewport. */
export const LongOperatorName: Story = {
  args: { ...Expanded.args, operatorName: 'Maximiliane Alexandra Fitzgerald-Montgomery' },
  play: async ({ canvas }) => {
    const header = canvas.getByRole('banner');
    const name = within(header).getByText('Maximiliane Alexandra Fitzgerald-Montgomery');
    // Truncated on screen, complete as the operator's tooltip and for assistive technology.
    await expect(name.parentElement).toHaveAttribute(
      'title',
      'Maximiliane Alexandra Fitzgerald-Montgomery',
    );
    await expect(name.scrollWidth).toBeGreaterThan(name.clientWidth);
    await expect(within(header).getByText('M')).toHaveAttribute('aria-hidden', 'true');
    await expectHeaderFits(header, 'Maximiliane Alexandra Fitzgerald-Montgomery');
    await expect(within(header).getByRole('button', { name: 'Log out' })).toBeVisible();
  },
};

/** The narrowest desktop (768 px, a portrait tablet): the header still fits without overlap. */
export const NarrowDesktop: Story = {
  args: { ...Expanded.args, isSoundEnabled: false },
  parameters: { route: '/settings', frameWidth: NARROW_DESKTOP_WIDTH },
  play: async ({ canvasElement, canvas }) => {
    const header = canvas.getByRole('banner');
    await expectHeaderFits(header, 'Admin');
    await expectExternalLinks(header);
    // The name and the switch's text step back visually; their accessible names stay.
    await expect(within(header).getByText('Admin').parentElement).toHaveAttribute('title', 'Admin');
    await expect(
      within(header).getByText('Admin').getBoundingClientRect().width,
    ).toBeLessThanOrEqual(1);
    await expect(within(header).getByRole('switch', { name: 'Sound alerts' })).toBeVisible();
    await expect(within(header).getByRole('button', { name: 'Log out' })).toBeVisible();
    await expectMainNav(canvasElement, 'Settings');
    await expect(canvas.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  },
};

/**
 * The header's live items: the stream indicator and the Activity button, whose popover feed is open
 * (opened by a click; Escape closes it and focus returns to the button).
 */
export const LiveFeedOpen: Story = {
  args: { ...Expanded.args },
  play: async ({ canvasElement, canvas }) => {
    const header = canvas.getByRole('banner');
    await expect(
      within(header).getByRole('status', { name: 'Live updates: Connected' }),
    ).toBeVisible();
    const button = within(header).getByRole('button', { name: 'Live activity, 2 unread' });
    await expectHeaderFits(header, 'Admin');
    await userEvent.click(button);
    const body = within(canvasElement.ownerDocument.body);
    let dialog = await body.findByRole('dialog', { name: 'Live activity' });
    await expect(within(dialog).getAllByRole('listitem')).toHaveLength(6);
    await expect(button).toHaveAccessibleName('Live activity');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(button).toHaveFocus());
    // Reopened with the keyboard, and left open for the screenshot.
    await userEvent.keyboard('{Enter}');
    dialog = await body.findByRole('dialog', { name: 'Live activity' });
    await expect(within(dialog).getAllByText('ada.lovelace@example.com')[0]).toBeVisible();
  },
};

/** The stream is offline: the header says so in words, not only colour. */
export const LiveOffline: Story = {
  args: { ...Expanded.args, liveActivity: <LiveHeaderItems state="offline" unreadCount={0} /> },
  play: async ({ canvas }) => {
    const header = canvas.getByRole('banner');
    const status = within(header).getByRole('status', { name: 'Live updates: Offline' });
    await expect(status).toHaveTextContent('Offline');
    await expect(within(header).getByRole('button', { name: 'Live activity' })).toBeVisible();
    await expectHeaderFits(header, 'Admin');
  },
};

/** Mobile: the live items step back to their icons (names kept as tooltips), and still fit. */
export const LiveMobile: Story = {
  args: {
    ...Expanded.args,
    viewport: 'mobile',
    liveActivity: <LiveHeaderItems state="reconnecting" unreadCount={12} isCompact />,
  },
  parameters: { route: '/', frameWidth: PHONE_WIDTH },
  play: async ({ canvas }) => {
    const header = canvas.getByRole('banner');
    await expectHeaderFits(header, 'Admin');
    const status = within(header).getByRole('status', { name: 'Live updates: Reconnecting…' });
    await expect(status).toHaveAttribute('title', 'Live updates: Reconnecting…');
    const button = within(header).getByRole('button', { name: 'Live activity, 12 unread' });
    await expect(button).toBeVisible();
    await userEvent.click(button);
    const dialog = await within(document.body).findByRole('dialog', { name: 'Live activity' });
    // The panel stays inside the phone's width.
    await expect(dialog.getBoundingClientRect().width).toBeLessThanOrEqual(PHONE_WIDTH);
  },
};
